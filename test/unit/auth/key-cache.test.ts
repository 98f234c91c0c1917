// An API process remembers looked-up keys for a few seconds, forgets them when a change is announced, and
// never remembers what a lookup read while a change was being announced.
import test from 'ava';
import { KeyCache } from '../../../src/auth/key-cache.js';
import { parseKeyChange } from '../../../src/db/key-changes.js';
import type { AuthenticatedKey } from '../../../src/db/keys.js';

const hash = (n: number) => Buffer.alloc(32, n);
const record = (organizationId: string): AuthenticatedKey => ({
  id: `key-${organizationId}`,
  organizationId,
  prefix: 'rk_live_abcd',
  keyHash: hash(1),
  sandbox: false,
  label: '',
  createdAt: new Date(0),
  expiresAt: null,
  revokedAt: null,
  rateLimitPerMinute: null,
});

function clockedCache(ttlMs: number) {
  const clock = { now: 1_000 };
  return { clock, cache: new KeyCache(ttlMs, () => clock.now) };
}

test('a remembered key is given back until its time is up, then looked up again', (t) => {
  const { clock, cache } = clockedCache(5_000);
  cache.remember(hash(1), record('org-a'), cache.mark());
  clock.now += 4_999;
  t.is(cache.get(hash(1))?.organizationId, 'org-a');
  clock.now += 1;
  t.is(cache.get(hash(1)), undefined);
  t.is(cache.size, 0);
});

test('a changed key or organization is forgotten at once, other keys stay', (t) => {
  const { cache } = clockedCache(5_000);
  cache.remember(hash(1), record('org-a'), cache.mark());
  cache.remember(hash(2), record('org-a'), cache.mark());
  cache.remember(hash(3), record('org-b'), cache.mark());
  cache.forgetKey(hash(1).toString('hex').toUpperCase());
  t.is(cache.get(hash(1)), undefined);
  t.truthy(cache.get(hash(2)));
  cache.forgetOrganization('org-a');
  t.is(cache.get(hash(2)), undefined);
  t.truthy(cache.get(hash(3)));
  cache.forgetAll();
  t.is(cache.size, 0);
});

test('what a lookup read while a change was announced is not remembered', (t) => {
  const { cache } = clockedCache(5_000);
  const before = cache.mark();
  cache.forgetKey(hash(1).toString('hex'));
  cache.remember(hash(1), record('org-a'), before);
  t.is(cache.get(hash(1)), undefined);
  cache.remember(hash(1), record('org-a'), cache.mark());
  t.truthy(cache.get(hash(1)));
});

test('with no lifetime nothing is remembered', (t) => {
  const { cache } = clockedCache(0);
  cache.remember(hash(1), record('org-a'), cache.mark());
  t.is(cache.get(hash(1)), undefined);
});

test('the cache holds at most 10,000 keys, forgetting the oldest first', (t) => {
  const { cache } = clockedCache(5_000);
  const key = (i: number) => Buffer.from(i.toString(16).padStart(64, '0'), 'hex');
  for (let i = 0; i < 10_001; i++) cache.remember(key(i), record('org-a'), cache.mark());
  t.is(cache.size, 10_000);
  t.is(cache.get(key(0)), undefined);
  t.truthy(cache.get(key(1)));
  t.truthy(cache.get(key(10_000)));
});

test('change notices name a key by its hash or an organization by its id; anything else is unknown', (t) => {
  t.deepEqual(parseKeyChange(`key:${'ab'.repeat(32)}`), { key: 'ab'.repeat(32) });
  t.deepEqual(parseKeyChange('organization:0b9a4c7e-6a0e-4c57-9d2a-1f6f0e0d1c2b'), {
    organization: '0b9a4c7e-6a0e-4c57-9d2a-1f6f0e0d1c2b',
  });
  t.is(parseKeyChange('key:xyz'), 'unknown');
  t.is(parseKeyChange(''), 'unknown');
});

test('a key is remembered for its time from when its lookup began: a slow lookup is not trusted longer', (t) => {
  const { clock, cache } = clockedCache(1_000);
  const mark = cache.mark();
  // The database took 400 ms to answer: what it said may be 400 ms old already.
  clock.now += 400;
  cache.remember(hash(1), record('org-a'), mark);
  clock.now += 599;
  t.is(cache.get(hash(1))?.organizationId, 'org-a');
  clock.now += 1;
  t.is(cache.get(hash(1)), undefined);
  // A lookup slower than the whole time is not remembered at all.
  const slow = cache.mark();
  clock.now += 1_000;
  cache.remember(hash(2), record('org-a'), slow);
  t.is(cache.size, 0);
});
