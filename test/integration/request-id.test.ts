// Every response carries X-Request-Id, and the request's line in the API's log begins with it: a caller's
// own id when it is usable (letters, digits and `._:+/=-`, up to 128), one the service makes otherwise.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../../scripts/stack/ports.js';
import { png } from '../support/fixtures.js';
import { call, createBody, form } from '../support/http.js';
import { logRecords, recordOnceItHolds } from '../support/logs.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization, stack } from '../support/stack.js';

const services = new TestServices();
let api: { root: string; url: string; log: string };
test.before(async () => {
  // An API of its own, so its log holds only this file's requests.
  const started = await services.api();
  api = { root: started.root, url: started.url, log: join(stack.logDir, `${started.child.spec.name}.log`) };
});
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test(
  'every answer carries a request id of its own: success, client errors, health, the OpenAPI ' +
    'document and unknown routes',
  async (t) => {
    const org = await newOrganization();
    const created = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody() });
    const answers = [
      created,
      await call(api.url, 'GET', '/reviews', { key: org.liveKey }),
      await call(api.url, 'GET', '/reviews/00000000-0000-4000-8000-000000000000', { key: org.liveKey }),
      await call(api.url, 'GET', '/reviews'),
      await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: { documents: 'none' } }),
      await call(api.root, 'GET', '/healthz'),
      await call(api.root, 'GET', '/readyz'),
      await call(api.url, 'GET', '/openapi.json'),
      await call(api.root, 'GET', '/no/such/route'),
    ];
    t.deepEqual(
      answers.map((a) => a.status),
      [201, 200, 404, 401, 422, 200, 200, 200, 404],
    );
    const ids = answers.map((a) => a.headers.get('x-request-id') ?? '');
    for (const id of ids) t.regex(id, UUID);
    t.is(new Set(ids).size, ids.length, 'one id per request');
  },
);

test(
  "a caller's own usable id is answered back and begins the request's line in the log, with " + 'its status',
  async (t) => {
    const org = await newOrganization();
    const mine = `trace-${randomUUID()}:span/7+x=`;
    const res = await call(api.url, 'GET', '/reviews/00000000-0000-4000-8000-000000000000', {
      key: org.liveKey,
      headers: { 'X-Request-Id': mine },
    });
    t.is(res.status, 404);
    t.is(res.headers.get('x-request-id'), mine);
    const record = await recordOnceItHolds(api.log, (r) => r.request_id === mine && r.status !== undefined);
    t.like(record, {
      level: 'info',
      method: 'GET',
      path: '/v1/reviews/00000000-0000-4000-8000-000000000000',
      status: 404,
    });
    t.regex(record?.message ?? '', /^GET \/v1\/reviews\/00000000-0000-4000-8000-000000000000 404 \d+ ms$/);
  },
);

test('an id that could forge or flood a log line is replaced by one the service makes, and never logged', async (t) => {
  const org = await newOrganization();
  const unusable = ['two words', 'x'.repeat(129), '<script>alert(1)</script>', 'a"b', 'ünïcode', ''];
  for (const given of unusable) {
    const res = await call(api.url, 'GET', '/reviews', { key: org.liveKey, headers: { 'X-Request-Id': given } });
    t.is(res.status, 200, given);
    const answered = res.headers.get('x-request-id') ?? '';
    t.regex(answered, UUID, `for ${JSON.stringify(given)}`);
    t.like(await recordOnceItHolds(api.log, (r) => r.request_id === answered), { path: '/v1/reviews', status: 200 });
  }
  // Read as records: a JSON line escapes a quote, so the text itself would not show one that was logged.
  const values = logRecords(await readFile(api.log, 'utf8')).flatMap((r) => Object.values(r).map(String));
  for (const given of unusable.filter((g) => g.length > 0))
    t.false(
      values.some((v) => v.includes(given)),
      `${JSON.stringify(given)} is not in the log`,
    );
});

test("a 5xx is logged, with what failed, under the caller's id it is answered with", async (t) => {
  const org = await newOrganization();
  // Object storage refusing connections while an upload is staged: nothing the client did.
  const broken = await services.api({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }, { waitReady: false });
  const mine = `support-case-${randomUUID()}`;
  const res = await call(broken.url, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'X-Request-Id': mine },
    form: form([{ name: 'id.png', data: png }]),
  });
  t.is(res.status, 503, res.text);
  t.is(res.headers.get('x-request-id'), mine);
  const logFile = join(stack.logDir, `${broken.child.spec.name}.log`);
  const failed = await recordOnceItHolds(logFile, (r) => r.request_id === mine && r.level === 'error');
  t.like(failed, { method: 'POST', path: '/v1/reviews', status: 503 });
  t.regex(failed?.message ?? '', /^failed: /);
  t.like(await recordOnceItHolds(logFile, (r) => r.request_id === mine && r.level === 'info'), {
    method: 'POST',
    path: '/v1/reviews',
    status: 503,
  });
});
