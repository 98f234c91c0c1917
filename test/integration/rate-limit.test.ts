// 60 requests a minute per organization by default, overridable per organization, counted in Postgres
// so that every API process shares the count.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { assertStatus, call, errorCode } from '../support/http.js';
import { closeShared, db, newOrganization, stack } from '../support/stack.js';
import { TestServices } from '../support/services.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

/** Fixed windows: start a burst early in a minute so it cannot straddle two windows. */
async function earlyInMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

test('every authenticated response carries the rate-limit headers; the default ceiling is 60', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'GET', '/reviews', { key: org.liveKey });
  t.is(res.headers.get('x-ratelimit-limit'), '60');
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  t.true(remaining >= 0 && remaining <= 59);
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const nowSeconds = Date.now() / 1000;
  t.true(reset > nowSeconds - 1 && reset <= nowSeconds + 61 && reset % 60 === 0, String(reset));
  const notFound = await call(stack.apiUrl, 'GET', `/reviews/${randomUUID()}`, { key: org.liveKey });
  t.is(notFound.headers.get('x-ratelimit-limit'), '60');
});

test('the limit is shared by two API processes and answered with 429 rate_limited and Retry-After', async (t) => {
  const org = await newOrganization();
  await db()`update organizations set rate_limit_per_minute = 5 where id = ${org.id}`;
  const second = await services.api();
  await earlyInMinute();
  const apis = [stack.apiUrl, second.url];
  const statuses: number[] = [];
  const remaining: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await call(apis[i % 2]!, 'GET', '/reviews', { key: org.liveKey });
    statuses.push(res.status);
    remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
  }
  t.deepEqual(statuses, [200, 200, 200, 200, 200]);
  t.deepEqual(remaining, ['4', '3', '2', '1', '0']);
  for (const url of apis) {
    const limited = await call(url, 'GET', '/reviews', { key: org.liveKey });
    t.is(limited.status, 429);
    t.is(errorCode(limited), 'rate_limited');
    t.is(limited.headers.get('x-ratelimit-limit'), '5');
    t.is(limited.headers.get('x-ratelimit-remaining'), '0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    t.true(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  }
  // Another organization is unaffected.
  const other = await newOrganization();
  assertStatus(t, await call(second.url, 'GET', '/reviews', { key: other.liveKey }), 200);
});

test(
  'concurrent requests to two API processes are admitted exactly up to the limit, each with a ' + 'place of its own',
  async (t) => {
    const org = await newOrganization();
    await db()`update organizations set rate_limit_per_minute = 30 where id = ${org.id}`;
    const second = await services.api();
    await earlyInMinute();
    const apis = [stack.apiUrl, second.url];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(apis[i % 2]!, 'GET', `/reviews/${randomUUID()}`, { key: org.liveKey })),
    );
    const admitted = answers.filter((r) => r.status === 404);
    const refused = answers.filter((r) => r.status === 429);
    t.is(admitted.length, 30);
    t.is(refused.length, 30);
    t.true(refused.every((r) => errorCode(r) === 'rate_limited'));
    // Every admitted request had a place of its own in the window: remaining 29 … 0, none twice.
    const remaining = admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    t.deepEqual(
      remaining,
      Array.from({ length: 30 }, (_, i) => i),
    );
  },
);
