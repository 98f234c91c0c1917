// Idempotency-Key on POST /v1/reviews: per organization, 24 hours; a retry gets 200 and the original body
// byte for byte; a different request with the same key is 422; concurrent duplicates create one review;
// failures are not remembered.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ReviewSchema } from '../../src/reviews/review.js';
import { assertStatus, call, createBody, errorCode, form } from '../support/http.js';
import { closeShared, db, newOrganization, stack } from '../support/stack.js';
import { elf, pdf, png } from '../support/fixtures.js';

test.after.always(closeShared);

const create = (key: string, idempotencyKey: string, json: unknown) =>
  call(stack.apiUrl, 'POST', '/reviews', { key, json, headers: { 'idempotency-key': idempotencyKey } });
const count = async (orgId: string) =>
  (await db()`select count(*)::int as n from reviews where organization_id = ${orgId}`)[0]!.n as number;

test('a retry with the same key returns 200 with the original body, byte for byte, and creates nothing', async (t) => {
  const org = await newOrganization();
  const key = randomUUID();
  const first = await create(org.liveKey, key, createBody({ reference_id: 'LN-idem', label: 'first' }));
  t.is(first.status, 201);
  const again = await create(org.liveKey, key, createBody({ reference_id: 'LN-idem', label: 'first' }));
  t.is(again.status, 200);
  t.is(again.text, first.text);
  t.is(await count(org.id), 1);
});

test('the same key with a different request is 422 invalid_request naming Idempotency-Key', async (t) => {
  const org = await newOrganization();
  const key = randomUUID();
  assertStatus(t, await create(org.liveKey, key, createBody({ label: 'a' })), 201);
  const other = await create(org.liveKey, key, createBody({ label: 'b' }));
  t.is(other.status, 422);
  t.is(errorCode(other), 'invalid_request');
  t.regex((other.body as { error: { message: string } }).error.message, /Idempotency-Key/);
  t.is(await count(org.id), 1);
});

test('keys are scoped to the organization', async (t) => {
  const a = await newOrganization();
  const b = await newOrganization();
  const key = randomUUID();
  const first = ReviewSchema.parse((await create(a.liveKey, key, createBody())).body);
  const second = await create(b.liveKey, key, createBody());
  t.is(second.status, 201);
  t.not(ReviewSchema.parse(second.body).review_id, first.review_id);
});

test('a key over 255 characters is 422 invalid_request', async (t) => {
  const org = await newOrganization();
  const res = await create(org.liveKey, 'k'.repeat(256), createBody());
  t.is(res.status, 422);
  t.regex((res.body as { error: { message: string } }).error.message, /Idempotency-Key/);
  t.is(await count(org.id), 0);
});

test('concurrent requests with one key create exactly one review', async (t) => {
  const org = await newOrganization();
  const key = randomUUID();
  const results = await Promise.all(
    Array.from({ length: 6 }, () => create(org.liveKey, key, createBody({ reference_id: 'LN-race' }))),
  );
  const statuses = results.map((r) => r.status).sort();
  t.deepEqual(statuses, [200, 200, 200, 200, 200, 201]);
  t.is(new Set(results.map((r) => r.text)).size, 1);
  t.is(await count(org.id), 1);
});

test('a failed create is not remembered: the key can then succeed', async (t) => {
  const org = await newOrganization();
  const key = randomUUID();
  const refused = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'idempotency-key': key },
    form: form([{ name: 'x.pdf', data: elf }]),
  });
  t.is(refused.status, 400);
  const ok = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'idempotency-key': key },
    form: form([{ name: 'x.png', data: png }]),
  });
  t.is(ok.status, 201);
});

test('multipart retries are recognised by content: same files replay, different files are 422', async (t) => {
  const org = await newOrganization();
  const key = randomUUID();
  const cd = await pdf('CD');
  const first = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'idempotency-key': key },
    form: form([{ name: 'cd.pdf', data: cd }]),
  });
  t.is(first.status, 201);
  const replay = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'idempotency-key': key },
    form: form([{ name: 'cd.pdf', data: cd }]),
  });
  t.is(replay.status, 200);
  t.is(replay.text, first.text);
  const different = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    headers: { 'idempotency-key': key },
    form: form([{ name: 'cd.pdf', data: await pdf('other') }]),
  });
  t.is(different.status, 422);
  t.is(await count(org.id), 1);
});

test(
  'a retry after the API died between starting the review and storing its answer finds that ' +
    'review, never a second',
  async (t) => {
    const org = await newOrganization();
    const key = `crash-${randomUUID()}`;
    const first = await create(org.liveKey, key, createBody());
    t.is(first.status, 201);
    const review = ReviewSchema.parse(first.body);
    // What a crash right after Temporal took the create leaves: the claim without its answer, minutes old.
    await db()`update idempotency_records set response_body = null, response_status = null, created_at =
      now() - interval '10 minutes'
              where organization_id = ${org.id} and key = ${key}`;
    const retry = await create(org.liveKey, key, createBody());
    t.is(retry.status, 200, retry.text);
    t.is(ReviewSchema.parse(retry.body).review_id, review.review_id);
    t.is(await count(org.id), 1);
    // Its answer is stored now: the next retry replays it byte for byte.
    const again = await create(org.liveKey, key, createBody());
    t.is(again.status, 200);
    t.is(again.text, retry.text);
  },
);
