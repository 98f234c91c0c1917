// Requests counted in batches still each get a place of their own, in the order they arrived, as if each
// had bumped the shared count alone.
import test from 'ava';
import { BatchedCounter } from '../../../src/rate-limit/batched-counter.js';

/** A shared count per key (as the counter row is) whose bumps finish only when the test says so. */
function sharedCount() {
  const totals = new Map<string, number>();
  const bumps: { key: string; n: number; finish: () => void; fail: (err: Error) => void }[] = [];
  const bump = (key: string, n: number) =>
    new Promise<number>((resolve, reject) => {
      bumps.push({
        key,
        n,
        finish: () => {
          const total = (totals.get(key) ?? 0) + n;
          totals.set(key, total);
          resolve(total);
        },
        fail: reject,
      });
    });
  return { bumps, bump };
}

const tick = () => new Promise((r) => setImmediate(r));

test('requests arriving while a bump is under way are counted by one bump and take consecutive places', async (t) => {
  const shared = sharedCount();
  const counter = new BatchedCounter<string>(shared.bump, (k) => k);
  const first = counter.count('org');
  const rest = [counter.count('org'), counter.count('org'), counter.count('org')];
  t.deepEqual(
    shared.bumps.map((b) => b.n),
    [1],
  );
  shared.bumps[0]!.finish();
  t.is(await first, 1);
  await tick();
  t.deepEqual(
    shared.bumps.map((b) => b.n),
    [1, 3],
  );
  shared.bumps[1]!.finish();
  t.deepEqual(await Promise.all(rest), [2, 3, 4]);
});

test('another process bumping in between is counted: places follow the shared total', async (t) => {
  const shared = sharedCount();
  const counter = new BatchedCounter<string>(shared.bump, (k) => k);
  const a = counter.count('org');
  const b = [counter.count('org'), counter.count('org')];
  shared.bumps[0]!.finish();
  await a;
  // A request reaches another API process before this one's second bump lands.
  const other = new BatchedCounter<string>(shared.bump, (k) => k);
  const theirs = other.count('org');
  await tick();
  const order = shared.bumps.slice(1);
  order.find((x) => x.n === 1)!.finish();
  t.is(await theirs, 2);
  order.find((x) => x.n === 2)!.finish();
  t.deepEqual(await Promise.all(b), [3, 4]);
});

test('keys are counted apart, and a failed bump fails only its own batch', async (t) => {
  const shared = sharedCount();
  const counter = new BatchedCounter<string>(shared.bump, (k) => k);
  const a = counter.count('org-a');
  const b = counter.count('org-b');
  t.deepEqual(
    shared.bumps.map((x) => [x.key, x.n]),
    [
      ['org-a', 1],
      ['org-b', 1],
    ],
  );
  shared.bumps[0]!.fail(new Error('database gone'));
  shared.bumps[1]!.finish();
  await t.throwsAsync(a, { message: 'database gone' });
  t.is(await b, 1);
  const again = counter.count('org-a');
  await tick();
  shared.bumps[2]!.finish();
  t.is(await again, 1);
});
