// /healthz says the process is up; /readyz says whether Postgres, MinIO and Temporal all answer and a worker
// polls the API's task queue.
import test from 'ava';
import { freePort } from '../../scripts/stack/ports.js';
import { call, createBody, errorCode, form } from '../support/http.js';
import { png } from '../support/fixtures.js';
import { recordOnceItHolds } from '../support/logs.js';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { apiRoot, closeShared, newOrganization, stack } from '../support/stack.js';
import { TestServices } from '../support/services.js';
import { onThisMachine } from '../support/machine-load.js';
import { REQUEST_DEADLINE_MS } from '../../api/deadline.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

test('healthz and readyz answer 200 on the running stack', async (t) => {
  const health = await call(apiRoot, 'GET', '/healthz');
  t.is(health.status, 200);
  const ready = await call(apiRoot, 'GET', '/readyz');
  t.is(ready.status, 200);
  t.deepEqual(ready.body, { status: 'ready', checks: { postgres: 'ok', minio: 'ok', temporal: 'ok', worker: 'ok' } });
});

test('readyz is 503 and names the dependency that does not answer', async (t) => {
  const deadPort = await freePort();
  const api = await services.api(
    { S3_ENDPOINT: `http://127.0.0.1:${deadPort}`, TEMPORAL_ADDRESS: `127.0.0.1:${deadPort}` },
    { waitReady: false },
  );
  t.is((await call(api.root, 'GET', '/healthz')).status, 200);
  const ready = await call(api.root, 'GET', '/readyz');
  t.is(ready.status, 503);
  t.deepEqual(ready.body, {
    status: 'unavailable',
    checks: { postgres: 'ok', minio: 'unavailable', temporal: 'unavailable', worker: 'unavailable' },
  });
});

test('readyz is 503 while no worker polls the task queue, though every server answers', async (t) => {
  // A task queue no worker has ever polled: the API and its servers are up, but a review would not run.
  const api = await services.api({ TEMPORAL_TASK_QUEUE: `no-worker-${randomUUID()}` }, { waitReady: false });
  const ready = await call(api.root, 'GET', '/readyz');
  t.is(ready.status, 503);
  t.deepEqual(ready.body, {
    status: 'unavailable',
    checks: { postgres: 'ok', minio: 'ok', temporal: 'ok', worker: 'unavailable' },
  });
});

test('when the key store is down, authentication is 503 auth_unavailable, never a pass or a 500', async (t) => {
  const deadPort = await freePort();
  const api = await services.api(
    { DATABASE_URL: `postgres://review:x@127.0.0.1:${deadPort}/review` },
    { waitReady: false },
  );
  const res = await call(api.url, 'GET', '/reviews/2b1e7a4e-8a51-4a8e-9b4b-1f0b0b0b0b0b', {
    key: 'rk_live_00000000000000000000000000000000',
  });
  t.is(res.status, 503);
  t.deepEqual(Object.keys(res.body as object), ['error']);
  t.is((res.body as { error: { code: string } }).error.code, 'auth_unavailable');
});

test(
  'object storage unreachable while an upload is staged is 503 service_unavailable with ' +
    'Retry-After and a request id, logged, and no internals in the body',
  async (t) => {
    const org = await newOrganization();
    // Object storage refusing connections while an upload is staged: nothing the client did, and nothing
    // a retry later will not mend.
    const api = await services.api({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }, { waitReady: false });
    const res = await call(api.url, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: 'id.png', data: png }]),
    });
    t.is(res.status, 503, res.text);
    t.is(errorCode(res), 'service_unavailable');
    t.truthy(res.headers.get('retry-after'));
    const requestId = res.headers.get('x-request-id');
    t.regex(requestId ?? '', /^[0-9a-f-]{36}$/);
    t.notRegex(res.text, /minio|Error:|at |127\.0\.0\.1|ECONNREFUSED/i);
    const logged = await recordOnceItHolds(
      join(stack.logDir, `${api.child.spec.name}.log`),
      (r) => r.request_id === requestId && r.level === 'error',
    );
    t.like(logged, { method: 'POST', path: '/v1/reviews', status: 503 });
    t.regex(logged?.message ?? '', /^failed: /);
  },
);

test(
  'Temporal unreachable: a create is 503 service_unavailable with Retry-After within 10 s, logged ' +
    'with a request id',
  async (t) => {
    const org = await newOrganization();
    const api = await services.api({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }, { waitReady: false });
    const started = Date.now();
    const res = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody() });
    t.true(Date.now() - started < REQUEST_DEADLINE_MS + onThisMachine(1_000), `answered in ${Date.now() - started} ms`);
    t.is(res.status, 503);
    t.is(errorCode(res), 'service_unavailable');
    t.is(res.headers.get('retry-after'), '5');
    t.notRegex(res.text, /Temporal|Error:|at |127\.0\.0\.1/i);
    const requestId = res.headers.get('x-request-id');
    t.regex(requestId ?? '', /^[0-9a-f-]{36}$/);
    const logged = await recordOnceItHolds(
      join(stack.logDir, `${api.child.spec.name}.log`),
      (r) => r.request_id === requestId && r.level === 'error',
    );
    t.like(logged, {
      method: 'POST',
      path: '/v1/reviews',
      message: 'its workflow did not take the submission within 9 s (service_unavailable)',
    });
  },
);
