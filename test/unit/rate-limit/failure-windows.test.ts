import test from 'ava';
import { FailureWindows } from '../../../src/rate-limit/failure-windows.js';

test(
  'an address is refused once it has tried as many distinct unknown keys as the limit, until its ' + 'window ends',
  (t) => {
    const w = new FailureWindows(3, 60_000);
    const start = 1_000_000;
    w.fail('10.0.0.1', 'a', start);
    w.fail('10.0.0.1', 'b', start + 1);
    t.is(w.retryAfterMs('10.0.0.1', 'x', start + 2), 0);
    w.fail('10.0.0.1', 'c', start + 2);
    t.is(w.retryAfterMs('10.0.0.1', 'x', start + 10_000), 50_000);
    t.is(w.retryAfterMs('10.0.0.2', 'x', start + 10_000), 0, 'another address is heard');
    t.is(w.retryAfterMs('10.0.0.1', 'x', start + 60_000), 0, 'a new window');
  },
);

test('the same wrong key sent again counts once', (t) => {
  const w = new FailureWindows(2, 60_000);
  for (let i = 0; i < 50; i++) w.fail('10.0.0.1', 'same', 1_000 + i);
  t.is(w.retryAfterMs('10.0.0.1', 'x', 2_000), 0);
});

test('memory is bounded: past the addresses it may track, the expired and then the oldest are forgotten', (t) => {
  const w = new FailureWindows(1, 60_000, 100);
  for (let i = 0; i < 1_000; i++) w.fail(`10.0.${i >> 8}.${i & 255}`, 'k', 1_000);
  t.true(w.size <= 101, `${w.size} addresses tracked`);
  t.true(w.retryAfterMs('10.0.3.231', 'x', 1_001) > 0, 'the latest are still held');
});

test(
  'a key that authenticated within the window is heard whatever its address; another key from the ' +
    'held address is not',
  (t) => {
    const w = new FailureWindows(1, 60_000);
    w.succeed('good', 1_000);
    w.fail('10.0.0.1', 'bad', 1_001);
    t.is(w.retryAfterMs('10.0.0.1', 'good', 1_002), 0);
    t.true(w.retryAfterMs('10.0.0.1', 'other', 1_002) > 0);
    t.true(w.retryAfterMs('10.0.0.1', 'good', 61_001) === 0, 'and after the window the address is heard anyway');
  },
);
