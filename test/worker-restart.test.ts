// Reviews live in Temporal, not in a worker: a worker killed with SIGKILL loses nothing, and a create
// sent while no worker runs completes when one returns.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ReviewSchema } from '../src/reviews/review.js';
import { getStateQuery } from '../workflows/messages.js';
import { call, createBody } from './support/http.js';
import { closeShared, db, newOrganization, temporalClient } from './support/stack.js';
import { TestServices } from './support/services.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

test('a review survives a kill -9 of its worker, and a create waits for a worker to come back', async (t) => {
  // A task queue of our own, so killing this worker disturbs no other test.
  const queue = { TEMPORAL_TASK_QUEUE: `restart-${randomUUID()}` };
  const org = await newOrganization();
  let worker = await services.worker(queue);
  const api = await services.api(queue);

  const created = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'LN-restart' }) });
  t.is(created.status, 201);
  const { review_id } = ReviewSchema.parse(created.body);

  await services.crash(worker);

  // With no worker, a new create is accepted by Temporal and waits; it is not lost.
  const pending = call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'LN-while-down' }) });
  await new Promise((r) => setTimeout(r, 1500));

  worker = await services.worker(queue);
  const late = await pending;
  t.is(late.status, 201);
  t.is(ReviewSchema.parse(late.body).reference_id, 'LN-while-down');

  // The new worker replays the first review's history: its state is intact and it is still running.
  const handle = (await temporalClient()).workflow.getHandle(review_id);
  t.like(await handle.query(getStateQuery), { reviewId: review_id, created: true, internalState: 'ingesting' });
  t.is((await handle.describe()).status.name, 'RUNNING');

  const rows = await db()`select reference_id, status from reviews where organization_id = ${org.id} order by reference_id`;
  t.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { reference_id: 'LN-restart', status: 'processing' },
      { reference_id: 'LN-while-down', status: 'processing' },
    ],
  );
  t.is((await call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey })).status, 200);
});
