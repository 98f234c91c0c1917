// Every /v1 request carries an API key bound to an organization.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createApiKey, revokeApiKey } from '../../src/db/keys.js';
import { call, errorCode } from '../support/http.js';
import { closeShared, db, newOrganization, stack } from '../support/stack.js';

test.after.always(closeShared);

const path = `/reviews/${randomUUID()}`;
const get = (headers: Record<string, string>) => call(stack.apiUrl, 'GET', path, { headers });

test('no key is 401 missing_api_key', async (t) => {
  const res = await get({});
  t.is(res.status, 401);
  t.is(errorCode(res), 'missing_api_key');
});

test('an unknown key, or a malformed Authorization header, is 401 invalid_api_key', async (t) => {
  const variants: Record<string, string>[] = [{ authorization: 'Bearer rk_live_nope' }, { authorization: 'Basic abc' }, { 'x-api-key': 'rk_live_nope' }];
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

test('a revoked or expired key is 401 invalid_api_key', async (t) => {
  const org = await newOrganization();
  const revoked = await createApiKey(db(), { organizationId: org.id, sandbox: false });
  t.is((await get({ authorization: `Bearer ${revoked.key}` })).status, 404);
  await revokeApiKey(db(), revoked.record.id);
  t.is(errorCode(await get({ authorization: `Bearer ${revoked.key}` })), 'invalid_api_key');

  const expired = await createApiKey(db(), { organizationId: org.id, sandbox: false, expiresAt: new Date(Date.now() - 1000) });
  t.is(errorCode(await get({ authorization: `Bearer ${expired.key}` })), 'invalid_api_key');
});

test('a valid key bound to no organization is 403 org_unbound', async (t) => {
  const unbound = await createApiKey(db(), { organizationId: null, sandbox: false });
  const res = await get({ authorization: `Bearer ${unbound.key}` });
  t.is(res.status, 403);
  t.is(errorCode(res), 'org_unbound');
});
