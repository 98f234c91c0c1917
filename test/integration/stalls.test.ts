// A stalled Postgres or Temporal (bytes stop on open connections, as under SIGSTOP or a network partition)
// does not hang requests: each is answered within 10 s with 503, its code and Retry-After, and the API
// serves again once the server does.
import test from 'ava';
import { ReviewSchema } from '../../src/reviews/review.js';
import { assertStatus, call, createBody, errorCode } from '../support/http.js';
import { TestServices } from '../support/services.js';
import { StallProxy } from '../support/stall-proxy.js';
import { closeShared, newOrganization, stack } from '../support/stack.js';
import { onThisMachine } from '../support/machine-load.js';
import { REQUEST_DEADLINE_MS } from '../../api/deadline.js';

/** The API's deadline, and a second (stretched on a busy machine) for its timer to fire and the answer to arrive. */
const ANSWERED_WITHIN_MS = () => REQUEST_DEADLINE_MS + onThisMachine(1_000);

const services = new TestServices();
const proxies: StallProxy[] = [];
test.after.always(async () => {
  for (const p of proxies) p.resume();
  await services.stopAll();
  for (const p of proxies) await p.close();
  await closeShared();
});

async function proxy(host: string, port: number): Promise<StallProxy> {
  const p = await new StallProxy({ host, port }).listen();
  proxies.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await work();
  return [result, Date.now() - started];
}

test.serial('a Postgres stall: requests on open connections answer 503 auth_unavailable with Retry-After within 10 s; service resumes after', async (t) => {
  const url = new URL(stack.serviceEnv.DATABASE_URL!);
  const pg = await proxy(url.hostname, Number(url.port));
  url.port = String(pg.port);
  const api = await services.api({ DATABASE_URL: url.toString() });
  const org = await newOrganization();
  const created = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody() });
  t.is(created.status, 201, created.text);
  const { review_id } = ReviewSchema.parse(created.body);
  // Warm: the pool's connections are open when the stall begins.
  assertStatus(t, await call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }), 200);

  pg.stall();
  const answers = await Promise.all(
    [0, 1, 2].map(() => timed(() => call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }))),
  );
  for (const [res, ms] of answers) {
    t.is(res.status, 503, res.text);
    t.is(errorCode(res), 'auth_unavailable');
    t.truthy(res.headers.get('retry-after'));
    t.true(ms < ANSWERED_WITHIN_MS(), `answered in ${ms} ms`);
  }
  t.log(`answered in ${answers.map(([, ms]) => ms).join(', ')} ms`);

  pg.resume();
  const [again, ms] = await timed(() => call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }));
  t.is(again.status, 200, again.text);
  t.log(`first request after the stall: ${ms} ms`);
});

test.serial('a Temporal stall: a create answers 503 service_unavailable with Retry-After within 10 s; creates succeed after', async (t) => {
  const [host, port] = stack.serviceEnv.TEMPORAL_ADDRESS!.split(':');
  const temporal = await proxy(host!, Number(port));
  const api = await services.api({ TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}` });
  const org = await newOrganization();
  assertStatus(t, await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'before' }) }), 201);

  temporal.stall();
  const [stalled, ms] = await timed(() => call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'during' }), headers: { 'Idempotency-Key': 'stall-1' } }));
  t.is(stalled.status, 503, stalled.text);
  t.is(errorCode(stalled), 'service_unavailable');
  t.truthy(stalled.headers.get('retry-after'));
  t.true(ms < ANSWERED_WITHIN_MS(), `answered in ${ms} ms`);
  // Reads that need only Postgres are not held up.
  assertStatus(t, await call(api.url, 'GET', '/reviews', { key: org.liveKey }), 200);

  temporal.resume();
  const after = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'after' }) });
  t.is(after.status, 201, after.text);
});
