// Every /v1 request carries an API key bound to an organization.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createApiKey, revokeApiKey } from '../../src/db/keys.js';
import { call, errorCode } from '../support/http.js';
import { closeShared, db, newOrganization, stack } from '../support/stack.js';
import { TestServices } from '../support/services.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const path = `/reviews/${randomUUID()}`;
const get = (headers: Record<string, string>) => call(stack.apiUrl, 'GET', path, { headers });

test('no key is 401 missing_api_key', async (t) => {
  const res = await get({});
  t.is(res.status, 401);
  t.is(errorCode(res), 'missing_api_key');
});

test('an unknown key, or a malformed Authorization header, is 401 invalid_api_key', async (t) => {
  const variants: Record<string, string>[] = [
    { authorization: 'Bearer rk_live_nope' },
    { authorization: 'Basic abc' },
    { 'x-api-key': 'rk_live_nope' },
  ];
  for (const headers of variants) {
    const res = await get(headers);
    t.is(res.status, 401);
    t.is(errorCode(res), 'invalid_api_key');
  }
});

test('the key works as Bearer or as X-Api-Key; both and different is invalid_api_key', async (t) => {
  const a = await newOrganization();
  const b = await newOrganization();
  t.is((await get({ authorization: `Bearer ${a.liveKey}` })).status, 404);
  t.is((await get({ 'x-api-key': a.liveKey })).status, 404);
  t.is((await get({ authorization: `Bearer ${a.liveKey}`, 'x-api-key': a.liveKey })).status, 404);
  const mixed = await get({ authorization: `Bearer ${a.liveKey}`, 'x-api-key': b.liveKey });
  t.is(mixed.status, 401);
  t.is(errorCode(mixed), 'invalid_api_key');
});

/** Asks until the key is refused or `withinMs` is over; how long the refusal took, or undefined. */
async function refusedWithin(url: string, key: string, withinMs: number): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    const res = await call(url, 'GET', path, { key });
    if (res.status === 401 && errorCode(res) === 'invalid_api_key') return Date.now() - started;
    if (Date.now() - started > withinMs) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a revoked or expired key is 401 invalid_api_key', async (t) => {
  const org = await newOrganization();
  const revoked = await createApiKey(db(), { organizationId: org.id, sandbox: false });
  t.is((await get({ authorization: `Bearer ${revoked.key}` })).status, 404);
  await revokeApiKey(db(), revoked.record.id);
  // Keys are remembered for API_KEY_CACHE_SECONDS (1) at most from their lookup: the revocation holds within it.
  t.not(await refusedWithin(stack.apiUrl, revoked.key, 1_000 + 2_000), undefined);

  const expired = await createApiKey(db(), {
    organizationId: org.id,
    sandbox: false,
    expiresAt: new Date(Date.now() - 1000),
  });
  t.is(errorCode(await get({ authorization: `Bearer ${expired.key}` })), 'invalid_api_key');
});

test('a remembered key stops working the moment it expires', async (t) => {
  const org = await newOrganization();
  const expiresAt = new Date(Date.now() + 3_000);
  const soon = await createApiKey(db(), { organizationId: org.id, sandbox: false, expiresAt });
  t.is((await get({ authorization: `Bearer ${soon.key}` })).status, 404);
  await new Promise((r) => setTimeout(r, expiresAt.getTime() - Date.now() + 10));
  t.is(errorCode(await get({ authorization: `Bearer ${soon.key}` })), 'invalid_api_key');
});

test(
  'a key revoked, or its organization changed, by any means reaches a process that would remember ' + 'it for a minute',
  async (t) => {
    const api = await services.api({ API_KEY_CACHE_SECONDS: '60' });
    const org = await newOrganization();
    const key = await createApiKey(db(), { organizationId: org.id, sandbox: false });
    t.is((await call(api.url, 'GET', path, { key: key.key })).status, 404);

    // The organization's limit changed in the database: the next answers carry it, long before a minute.
    await db()`update organizations set rate_limit_per_minute = 7 where id = ${org.id}`;
    let limit: string | null = null;
    for (const started = Date.now(); limit !== '7' && Date.now() - started < 10_000; ) {
      limit = (await call(api.url, 'GET', path, { key: key.key })).headers.get('x-ratelimit-limit');
      if (limit !== '7') await new Promise((r) => setTimeout(r, 100));
    }
    t.is(limit, '7');

    // Revoked by plain SQL, as an operator might: refused well within the minute the key would be kept.
    await db()`update api_keys set revoked_at = now() where id = ${key.record.id}`;
    const took = await refusedWithin(api.url, key.key, 10_000);
    t.not(took, undefined);
  },
);

test('a valid key bound to no organization is 403 org_unbound', async (t) => {
  const unbound = await createApiKey(db(), { organizationId: null, sandbox: false });
  const res = await get({ authorization: `Bearer ${unbound.key}` });
  t.is(res.status, 403);
  t.is(errorCode(res), 'org_unbound');
});

test(
  'a revoked key is refused by every API process within API_KEY_CACHE_SECONDS (1 s) of the ' +
    'revocation, on a loaded machine',
  async (t) => {
    const apis = await Promise.all([services.api(), services.api()]);
    // Asked some hundred times in the test: its rate limit is not what is checked.
    const org = await newOrganization({ rateLimitPerMinute: 100_000 });
    const key = await createApiKey(db(), { organizationId: org.id, sandbox: false });
    // Load both cores, as a busy machine has them, for the whole of the check.
    const burners = [0, 1].map(() =>
      spawn(process.execPath, ['-e', 'const end = Date.now() + 20000; while (Date.now() < end) {}'], {
        stdio: 'ignore',
      }),
    );
    try {
      // Each process remembers the key (and keeps looking it up as it lapses) while the machine is busy.
      const until = Date.now() + 1_500;
      while (Date.now() < until)
        for (const api of apis) t.is((await call(api.url, 'GET', path, { key: key.key })).status, 404);
      await db()`update api_keys set revoked_at = now() where id = ${key.record.id}`;
      const revokedBy = Date.now();
      // Every request sent from a second after the revocation on is refused, by both; before, either answer is allowed.
      const answers: { api: number; sentAfterMs: number; status: number }[] = [];
      while (Date.now() - revokedBy < 3_000) {
        await Promise.all(
          apis.map(async (api, i) => {
            const sentAfterMs = Date.now() - revokedBy;
            answers.push({ api: i, sentAfterMs, status: (await call(api.url, 'GET', path, { key: key.key })).status });
          }),
        );
        await new Promise((r) => setTimeout(r, 50));
      }
      const late = answers.filter((a) => a.sentAfterMs >= 1_000);
      t.true(late.length >= 4, `only ${late.length} requests sent past the bound`);
      t.deepEqual(
        late.filter((a) => a.status !== 401),
        [],
      );
      for (const i of [0, 1]) {
        const first = answers.find((a) => a.api === i && a.status === 401);
        t.log(`API ${i}: first refused request sent ${first?.sentAfterMs ?? '-'} ms after the revocation`);
      }
    } finally {
      for (const b of burners) b.kill();
    }
  },
);

test(
  'an address that tried more distinct unknown keys than AUTH_FAILURES_PER_MINUTE is refused 429 ' +
    'before its keys are looked up; a key that authenticated here within the minute still works',
  async (t) => {
    // An API of its own: its limit is 3 distinct keys a minute.
    const { url } = await services.api({ AUTH_FAILURES_PER_MINUTE: '3' });
    const org = await newOrganization();
    const fresh = await newOrganization();
    const at = (key: string) => call(url, 'GET', path, { headers: { authorization: `Bearer ${key}` } });
    t.is((await at(org.liveKey)).status, 404, 'a valid key, used before any failure');
    // A client retrying one wrong key is not locked out by its retries.
    for (let i = 0; i < 5; i++) t.is(errorCode(await at('rk_live_wrong-and-retried')), 'invalid_api_key');
    for (const key of ['rk_live_guess-1', 'rk_live_guess-2']) t.is(errorCode(await at(key)), 'invalid_api_key');
    const refused = await at('rk_live_guess-3');
    t.is(refused.status, 429, refused.text);
    t.is(errorCode(refused), 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    t.true(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    t.is((await at(org.liveKey)).status, 404, 'the key that authenticated a moment ago is not locked out');
    t.is((await at(fresh.liveKey)).status, 429, 'a key it would have to look up waits with the rest of the address');
  },
);
