// The admin CLI creates organizations and keys that the API then accepts, and revokes them.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { admin, runAdmin } from '../support/admin.js';
import { call, errorCode } from '../support/http.js';
import { closeShared, db, stack } from '../support/stack.js';

test.after.always(closeShared);

test('org create, key create, key list and key revoke work end to end', async (t) => {
  const org = (await admin('org', 'create', '--name', 'Acme Lending')) as { id: string; name: string };
  t.is(org.name, 'Acme Lending');

  const live = (await admin('key', 'create', '--org', org.id, '--mode', 'live', '--label', 'ci')) as {
    key: string;
    id: string;
    prefix: string;
  };
  const sandbox = (await admin('key', 'create', '--org', org.id, '--mode', 'sandbox')) as { key: string };
  t.regex(live.key, /^rk_live_/);
  t.regex(sandbox.key, /^rk_test_/);
  t.is(live.prefix, live.key.slice(0, 12));

  // Only the hash is stored.
  const stored = await db()`select count(*)::int as n from api_keys where prefix = ${live.prefix} and key_hash =
      sha256(${live.key}::bytea)`;
  t.is(stored[0]!.n, 1);
  const plain =
    await db()`select count(*)::int as n from api_keys where encode(key_hash, 'escape') like ${`%${live.key}%`}`;
  t.is(plain[0]!.n, 0);

  const listed = (await admin('key', 'list', '--org', org.id)) as { prefix: string; mode: string; state: string }[];
  t.deepEqual(listed.map((k) => [k.mode, k.state]).sort(), [
    ['live', 'active'],
    ['sandbox', 'active'],
  ]);
  t.false(JSON.stringify(listed).includes(live.key));

  const path = `/reviews/${randomUUID()}`;
  t.is((await call(stack.apiUrl, 'GET', path, { key: live.key })).status, 404);
  await admin('key', 'revoke', live.id);
  // Every API process refuses it within API_KEY_CACHE_SECONDS (1 s) of the revocation, not at once.
  let refused: string | undefined;
  for (const until = Date.now() + 1_000; ; ) {
    const sentAt = Date.now();
    refused = errorCode(await call(stack.apiUrl, 'GET', path, { key: live.key }));
    if (refused === 'invalid_api_key' || sentAt >= until) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.is(refused, 'invalid_api_key');
});

test('an unbound key is refused with org_unbound', async (t) => {
  const unbound = (await admin('key', 'create', '--unbound')) as { key: string; organization_id: string | null };
  t.is(unbound.organization_id, null);
  t.is(errorCode(await call(stack.apiUrl, 'GET', `/reviews/${randomUUID()}`, { key: unbound.key })), 'org_unbound');
});

test('a usage error exits 2 with the usage text', async (t) => {
  const run = await runAdmin(['key', 'create']);
  t.is(run.code, 2);
  t.regex(run.stderr, /exactly one of --org <id> or --unbound/);
});

test("org set changes an organization's operator settings, 'default' clears an override, and 'none' a retention", async (t) => {
  const org = (await admin('org', 'create', '--name', 'Policy Lending')) as { id: string };
  const set = await admin(
    'org',
    'set',
    org.id,
    '--release-policy',
    'hold',
    '--max-analyses',
    '2',
    '--awaiting-seconds',
    '3600',
    '--retention-days',
    '365',
  );
  t.deepEqual(set, {
    id: org.id,
    release_policy: 'hold',
    max_concurrent_analyses: 2,
    awaiting_documents_seconds: 3600,
    rate_limit_per_minute: null,
    retention_days: 365,
  });
  const cleared = await admin('org', 'set', org.id, '--max-analyses', 'default', '--release-policy', 'auto');
  t.like(cleared, {
    release_policy: 'auto',
    max_concurrent_analyses: null,
    awaiting_documents_seconds: 3600,
    retention_days: 365,
  });
  t.like(await admin('org', 'set', org.id, '--retention-days', 'none'), { retention_days: null });
  await t.throwsAsync(admin('org', 'set', org.id, '--max-analyses', '0'));
  await t.throwsAsync(admin('org', 'set', org.id, '--retention-days', '0'));
});
