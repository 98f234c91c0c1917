// Analysis slots on the real Postgres (decisions.md, "Queued"): at most N analyses of an organization at once across
// every worker, waiters served oldest first, a slot given back handed at once to as many waiters as slots
// are free, and neither a vanished holder, a vanished waiter nor an unclaimed grant blocks the
// organization for good.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { acquireAnalysisSlot, releaseAnalysisSlot, slotsInUse } from '../../src/db/analysis-slots.js';
import { insertReview } from '../../src/db/reviews.js';
import { ReviewSchema, type Review } from '../../src/reviews/review.js';
import { capacityFreedSignal } from '../../workflows/messages.js';
import { call, form, whileUnavailable } from '../support/http.js';
import { pdf } from '../support/fixtures.js';
import { transitions, waitForReview } from '../support/reviews.js';
import { closeShared, db, newOrganization, stack, temporalClient, type TestOrganization } from '../support/stack.js';

test.after.always(closeShared);

async function reviews(organizationId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await insertReview(db(), {
      id,
      organizationId,
      sandbox: false,
      status: 'processing',
      internalState: 'ingesting',
      reviewType: 'mortgage_v1',
      label: null,
      referenceId: null,
      metadata: null,
      createdAt: new Date(),
    });
    ids.push(id);
  }
  return ids;
}

test(
  'at most the limit hold slots; a slot given back goes to the oldest waiter, and a newcomer does ' + 'not jump it',
  async (t) => {
    const org = await newOrganization();
    const [a, b, c, d] = await reviews(org.id, 4);
    const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
    const giveBack = (reviewId: string) => releaseAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
    t.true(await ask(a!));
    t.true(await ask(b!));
    t.false(await ask(c!), 'both slots are taken');
    t.true(await ask(a!), 'asking again while holding keeps the slot');

    t.deepEqual(await giveBack(a!), [c!], 'the slot is granted to the waiter, named to be told');
    t.false(await ask(d!), "a newcomer waits: the free slot is already c's");
    t.true(await ask(c!), 'the granted waiter finds its slot');
    t.true(await ask(c!), 'and keeps it');
    t.deepEqual(await giveBack(b!), [d!]);
    t.true(await ask(d!));
    t.is(await slotsInUse(db(), org.id), 2);
    t.deepEqual(await giveBack(c!), [], 'nobody waits');
    t.true(await ask(a!), 'a free slot with nobody waiting is taken at once');
  },
);

test(
  'two slots freed at once are granted to the two oldest waiters together, both returned; the ' + 'third waits',
  async (t) => {
    const org = await newOrganization();
    const [a, b, c, d, e, f] = await reviews(org.id, 6);
    const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
    t.true(await ask(a!));
    t.true(await ask(b!));
    for (const waiter of [c!, d!, e!]) t.false(await ask(waiter));
    // b's workflow vanished hours ago; a gives back its slot: both slots are free now.
    await db()`update analysis_slots set since = now() - interval '3 hours' where review_id = ${b!}`;
    t.deepEqual(
      await releaseAnalysisSlot(db(), { reviewId: a!, organizationId: org.id, limit: 2 }),
      [c!, d!],
      'oldest first, as many as are free',
    );
    t.is(await slotsInUse(db(), org.id), 2);
    t.false(await ask(f!), 'a newcomer waits');
    t.false(await ask(e!), 'the third waiter waits');
    t.true(await ask(d!));
    t.true(await ask(c!));
    t.is(await slotsInUse(db(), org.id), 2);
  },
);

test(
  'reviews giving back slots together grant distinct waiters, oldest first, and never more ' + 'than the limit',
  async (t) => {
    const org = await newOrganization();
    const ids = await reviews(org.id, 10);
    const limit = 3;
    const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit });
    const holders: string[] = [];
    for (const id of ids) if (await ask(id)) holders.push(id);
    t.deepEqual(holders, ids.slice(0, limit));
    let waiting = ids.slice(limit);
    let active = holders;
    while (active.length > 0) {
      // Every holder gives back at once while every waiter asks again at once.
      const [released] = await Promise.all([
        Promise.all(active.map((reviewId) => releaseAnalysisSlot(db(), { reviewId, organizationId: org.id, limit }))),
        Promise.all(waiting.map((reviewId) => ask(reviewId))),
      ]);
      t.true((await slotsInUse(db(), org.id)) <= limit, 'the limit holds');
      const granted = released.flat();
      t.is(new Set(granted).size, granted.length, 'no waiter is granted twice');
      // Whoever was granted (or took a slot free when it asked) claims it now.
      const claimed: string[] = [];
      for (const id of waiting) if (await ask(id)) claimed.push(id);
      t.true(
        granted.every((g) => claimed.includes(g)),
        'each granted waiter finds its slot',
      );
      t.deepEqual(claimed, waiting.slice(0, Math.min(limit, waiting.length)), 'the oldest waiters, as many as slots');
      t.true((await slotsInUse(db(), org.id)) <= limit);
      waiting = waiting.filter((w) => !claimed.includes(w));
      active = claimed;
    }
    t.deepEqual(waiting, []);
  },
);

test('concurrent requests never hand out more slots than the limit', async (t) => {
  const org = await newOrganization();
  const ids = await reviews(org.id, 12);
  const granted = await Promise.all(
    ids.map((reviewId) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 3 })),
  );
  t.is(granted.filter(Boolean).length, 3);
});

test('a holder gone for hours and a waiter that stopped asking no longer block the organization', async (t) => {
  const org = await newOrganization();
  const [gone, quiet, next] = await reviews(org.id, 3);
  t.true(await acquireAnalysisSlot(db(), { reviewId: gone!, organizationId: org.id, limit: 1 }));
  t.false(await acquireAnalysisSlot(db(), { reviewId: quiet!, organizationId: org.id, limit: 1 }));
  await db()`update analysis_slots set since = now() - interval '3 hours' where review_id = ${gone!}`;
  await db()`update analysis_slots set seen_at = now() - interval '5 minutes' where review_id = ${quiet!}`;
  t.true(await acquireAnalysisSlot(db(), { reviewId: next!, organizationId: org.id, limit: 1 }));
});

test(
  "a grant its waiter never claims lapses after the waiters' lease: the slot goes on, and the " +
    'waiter comes back a waiter',
  async (t) => {
    const org = await newOrganization();
    const [holder, vanished, next, later] = await reviews(org.id, 4);
    const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 1 });
    t.true(await ask(holder!));
    t.false(await ask(vanished!));
    t.false(await ask(next!));
    t.deepEqual(await releaseAnalysisSlot(db(), { reviewId: holder!, organizationId: org.id, limit: 1 }), [vanished!]);
    t.false(await ask(next!), 'the grant holds the slot while it may still be claimed');
    // Its workflow was terminated before it asked again: two minutes on, the grant has lapsed.
    await db()`update analysis_slots set granted_at = now() - interval '3 minutes', seen_at = now() -
      interval '3 minutes' where review_id = ${vanished!}`;
    t.is(await slotsInUse(db(), org.id), 0, 'a lapsed grant takes no slot');
    t.true(await ask(next!), 'the next waiter takes the slot');
    t.false(await ask(vanished!), 'asking after its grant lapsed, the review waits again');
    t.false(await ask(later!));
    t.deepEqual(
      await releaseAnalysisSlot(db(), { reviewId: next!, organizationId: org.id, limit: 1 }),
      [vanished!],
      'at its old place, first',
    );
    t.true(await ask(vanished!));
  },
);

test('a lapsed grant is handed on with the next slot given back', async (t) => {
  const org = await newOrganization();
  const [a, b, vanished, c, d] = await reviews(org.id, 5);
  const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
  t.true(await ask(a!));
  t.true(await ask(b!));
  for (const waiter of [vanished!, c!, d!]) t.false(await ask(waiter));
  t.deepEqual(await releaseAnalysisSlot(db(), { reviewId: a!, organizationId: org.id, limit: 2 }), [vanished!]);
  await db()`update analysis_slots set granted_at = now() - interval '3 minutes', seen_at = now() -
    interval '3 minutes' where review_id = ${vanished!}`;
  t.deepEqual(
    await releaseAnalysisSlot(db(), { reviewId: b!, organizationId: org.id, limit: 2 }),
    [c!, d!],
    "the slot of the lapsed grant and b's",
  );
  t.is(await slotsInUse(db(), org.id), 2);
});

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, opts);

/** Creates a review as an integrator should: a 503 (a busy machine) is retried with the same Idempotency-Key. */
async function create(org: TestOrganization, files: { name: string; data: Buffer }[]): Promise<Review> {
  const headers = { 'idempotency-key': randomUUID() };
  const res = await whileUnavailable(
    () => api('POST', '/reviews', { key: org.liveKey, headers, form: form(files) }),
    60_000,
  );
  if (res.status !== 201 && res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return ReviewSchema.parse(res.body);
}

test(
  'waiting reviews are granted the slots freed together and go on being told; a review finishing ' + 'tells the next',
  async (t) => {
    const org = await newOrganization({ maxConcurrentAnalyses: 2 });
    // Two analyses of this organization hold both slots (as ones on other workers would).
    const [elsewhere, gone] = await reviews(org.id, 2);
    const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
    t.true(await ask(elsewhere!));
    t.true(await ask(gone!));
    const waiting: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await create(org, [{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]);
      // One after another, so that their places in the queue are known.
      await waitForReview(org.liveKey, created.review_id, (r) => r.status === 'queued');
      waiting.push(created.review_id);
    }
    // One holder's workflow vanished hours ago and the other gives back its slot: both slots are free, and
    // both go to the two oldest waiters at once, who are told as a finishing review's workflow tells them.
    await db()`update analysis_slots set since = now() - interval '3 hours' where review_id = ${gone!}`;
    const granted = await releaseAnalysisSlot(db(), { reviewId: elsewhere!, organizationId: org.id, limit: 2 });
    t.deepEqual(granted, waiting.slice(0, 2));
    const client = await temporalClient();
    await Promise.all(granted.map((id) => client.workflow.getHandle(id).signal(capacityFreedSignal)));

    for (const id of waiting) await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 120_000);
    for (const id of waiting)
      t.deepEqual(await transitions(id), ['ingesting', 'waiting_for_capacity', 'analysing', 'rendering', 'released']);
    // Nobody here told the third: one of the first two granted it the slot it gave back and told it.
    const third = await client.workflow.getHandle(waiting[2]!).fetchHistory();
    const told = (third.events ?? []).filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === capacityFreedSignal.name,
    );
    t.true(told.length >= 1, 'the third review was told by a review that gave back its slot');
    t.is(await slotsInUse(db(), org.id), 0, 'every slot was given back');
  },
);
