// Several replicas, as production runs them: two API processes and two workers (each polling both task
// queues) on one Temporal, PostgreSQL and object store. A burst of creates spread over both APIs is
// taken and every review completes exactly once (one release, one review.completed per endpoint), with
// one worker killed with -9 in the middle of it; an organization's analysis slots and its rate limit hold
// across the processes, not per process.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { slotsInUse } from '../../src/db/analysis-slots.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { pdf } from '../support/fixtures.js';
import { call, form, whileUnavailable, type ApiResponse } from '../support/http.js';
import { registerEndpoint, transitions, waitForReview } from '../support/reviews.js';
import { TestServices } from '../support/services.js';
import { closeShared, db, newOrganization } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const CREATES = 40;
const MAX_ANALYSES = 2;

test(
  '40 creates over two APIs and two workers, one worker killed mid-burst: every review completes ' +
    'once, slots and rate limits hold fleet-wide',
  async (t) => {
    t.timeout(600_000);
    const queue = { TEMPORAL_TASK_QUEUE: `replicas-${randomUUID()}` };
    const org = await newOrganization({ maxConcurrentAnalyses: MAX_ANALYSES, rateLimitPerMinute: 1_000 });
    const receiver = await WebhookReceiver.start();
    await registerEndpoint(org.liveKey, receiver.url);
    const workers = [await services.worker(queue), await services.worker(queue)];
    const apis = [await services.api(queue), await services.api(queue)];

    // The organization's analysis slots, sampled across the whole run.
    let sampling = true;
    let mostSlots = 0;
    const sampler = (async () => {
      while (sampling) {
        mostSlots = Math.max(mostSlots, await slotsInUse(db(), org.id));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const document = await pdf('Closing Disclosure');
    let answered = 0;
    let killed = false;
    const creates = Array.from({ length: CREATES }, async (_, i): Promise<ApiResponse> => {
      const api = apis[i % 2]!;
      const key = { 'idempotency-key': `replica-${queue.TEMPORAL_TASK_QUEUE}-${i}` };
      // A client retries a 503 with its Idempotency-Key, as the interface says.
      const res = await whileUnavailable(
        () =>
          call(api.url, 'POST', '/reviews', {
            key: org.liveKey,
            headers: key,
            form: form([{ name: `cd-${i}.pdf`, data: document }], { reference_id: `REPLICA-${i}` }),
          }),
        180_000,
      );
      answered += 1;
      if (answered === 15 && !killed) {
        killed = true;
        await services.crash(workers[0]!);
      }
      return res;
    });
    const responses = await Promise.all(creates);
    t.true(killed, 'a worker was killed during the burst');
    t.deepEqual(
      responses.filter((r) => r.status !== 201 && r.status !== 200).map((r) => `${r.status} ${r.text}`),
      [],
      'every create was taken',
    );
    const ids = responses.map((r) => ReviewSchema.parse(r.body).review_id);
    t.is(new Set(ids).size, CREATES, 'one review per create');

    for (const id of ids) await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 300_000, apis[0]!.url);
    sampling = false;
    await sampler;
    t.true(
      mostSlots <= MAX_ANALYSES,
      `at most ${MAX_ANALYSES} analyses of the organization at once across both workers (saw ${mostSlots})`,
    );

    // Exactly once: one release each, one released transition, one review.completed event per endpoint.
    const releases = await db()<
      { review_id: string; n: number }[]
    >`select review_id, count(*)::int as n from releases where review_id = any(${ids}) group by review_id`;
    t.deepEqual(new Set(releases.map((r) => r.n)), new Set([1]));
    t.is(releases.length, CREATES);
    for (const id of ids.slice(0, 5)) t.is((await transitions(id)).filter((s) => s === 'released').length, 1, id);
    // Each review's review.completed event ids, as the receiver got them.
    const completedEvents = () => {
      const ids = new Map<string, Set<string>>();
      for (const p of receiver.payloads())
        if (p.event === 'review.completed') ids.set(p.review_id, (ids.get(p.review_id) ?? new Set()).add(p.id));
      return ids;
    };
    let completed = completedEvents();
    for (
      const deadline = Date.now() + 60_000;
      completed.size < CREATES && Date.now() < deadline;
      completed = completedEvents()
    ) {
      await new Promise((r) => setTimeout(r, 250));
    }
    t.is(completed.size, CREATES, 'a review.completed for every review');
    t.deepEqual(
      new Set([...completed.values()].map((s) => s.size)),
      new Set([1]),
      'one event id per review (a redelivery repeats its id)',
    );
    await receiver.close();
  },
);

test("an organization's rate limit is counted across API processes, not per process", async (t) => {
  const queue = { TEMPORAL_TASK_QUEUE: `replicas-rate-${randomUUID()}` };
  const org = await newOrganization({ rateLimitPerMinute: 10 });
  const apis = [await services.api(queue, { waitReady: false }), await services.api(queue, { waitReady: false })];
  const started = Date.now();
  const statuses: number[] = [];
  for (let i = 0; i < 16; i++)
    statuses.push((await call(apis[i % 2]!.url, 'GET', '/reviews', { key: org.liveKey })).status);
  const sameMinute = Math.floor(started / 60_000) === Math.floor(Date.now() / 60_000);
  const allowed = statuses.filter((s) => s === 200).length;
  t.true(
    statuses.every((s) => s === 200 || s === 429),
    statuses.join(' '),
  );
  // Within one window exactly the limit passes, whichever process answers, and the rest are refused; a
  // window boundary met in the middle lets at most one more window's worth through (all 16, it may be).
  if (sameMinute) t.is(allowed, 10, statuses.join(' '));
  else t.true(allowed >= 10 && allowed <= 20, statuses.join(' '));
});
