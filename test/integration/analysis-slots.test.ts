// Analysis slots on the real Postgres (DECISIONS 5): at most N analyses of an organization at once across
// every worker, waiters served oldest first, and neither a vanished holder nor a vanished waiter blocks
// the organization for good.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { acquireAnalysisSlot, releaseAnalysisSlot } from '../../src/db/analysis-slots.js';
import { insertReview } from '../../src/db/reviews.js';
import { closeShared, db, newOrganization } from '../support/stack.js';

test.after.always(closeShared);

async function reviews(organizationId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await insertReview(db(), {
      id, organizationId, sandbox: false, status: 'processing', internalState: 'ingesting', reviewType: 'mortgage_v1',
      label: null, referenceId: null, metadata: null, createdAt: new Date(),
    });
    ids.push(id);
  }
  return ids;
}

test('at most the limit hold slots; the oldest waiter is next, and a newcomer does not jump it', async (t) => {
  const org = await newOrganization();
  const [a, b, c, d] = await reviews(org.id, 4);
  const ask = (reviewId: string) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 2 });
  t.true(await ask(a!));
  t.true(await ask(b!));
  t.false(await ask(c!), 'both slots are taken');
  t.true(await ask(a!), 'asking again while holding keeps the slot');

  t.is(await releaseAnalysisSlot(db(), { reviewId: a!, organizationId: org.id }), c!, 'the waiter is named to be told');
  t.false(await ask(d!), 'a newcomer waits behind c although a slot is free');
  t.true(await ask(c!));
  t.is(await releaseAnalysisSlot(db(), { reviewId: b!, organizationId: org.id }), d!);
  t.true(await ask(d!));
  const held = await db()`select count(*)::int as n from analysis_slots where organization_id = ${org.id} and holding`;
  t.is(held[0]!.n, 2);
});

test('concurrent requests never hand out more slots than the limit', async (t) => {
  const org = await newOrganization();
  const ids = await reviews(org.id, 12);
  const granted = await Promise.all(ids.map((reviewId) => acquireAnalysisSlot(db(), { reviewId, organizationId: org.id, limit: 3 })));
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
