// API keys: their format, and that only a hash is kept.
import test from 'ava';
import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, KEY_PATTERN, sameKeyHash } from '../../../src/auth/api-keys.js';

test('live and sandbox keys have distinct prefixes and 32 random characters', (t) => {
  const live = generateApiKey(false);
  const sandbox = generateApiKey(true);
  t.regex(live.key, /^rk_live_[0-9A-Za-z]{32}$/);
  t.regex(sandbox.key, /^rk_test_[0-9A-Za-z]{32}$/);
  t.true(KEY_PATTERN.test(live.key));
  t.is(live.prefix, live.key.slice(0, 12));
  t.false(live.sandbox);
  t.true(sandbox.sandbox);
});

test('keys are unique', (t) => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey(false).key));
  t.is(keys.size, 1000);
});

test('the stored hash is the SHA-256 of the key', (t) => {
  const g = generateApiKey(false);
  t.deepEqual(g.hash, createHash('sha256').update(g.key).digest());
  t.true(sameKeyHash(hashApiKey(g.key), g.hash));
  t.false(sameKeyHash(hashApiKey(`${g.key}x`), g.hash));
  t.false(sameKeyHash(Buffer.alloc(3), g.hash));
});
