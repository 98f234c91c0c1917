// Listing cursors are opaque and tamper-evident.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { decodeCursor, encodeCursor, InvalidCursorError } from '../../../src/reviews/cursor.js';

const secret = 's'.repeat(40);
const org = randomUUID();
const position = { createdAt: '2026-11-22T10:00:00.123Z', id: randomUUID() };

test('a cursor round-trips for its organization', (t) => {
  t.deepEqual(decodeCursor(encodeCursor(org, position, secret), org, secret), position);
});

test('an altered, foreign, re-signed or malformed cursor is refused', (t) => {
  const cursor = encodeCursor(org, position, secret);
  const [payload, sig] = cursor.split('.') as [string, string];
  const forged = Buffer.from(JSON.stringify({ o: org, c: position.createdAt, i: randomUUID() })).toString('base64url');
  for (const bad of [
    `${forged}.${sig}`,
    // Its first character changed: all six of its bits are the signature's (the last character's low two are
    // not), and it always differs, where a fixed ending ("AA") is a random signature's own one time in 1,024.
    `${payload}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`,
    `${payload}`,
    `${payload}.${sig}.x`,
    'garbage',
    '',
    encodeCursor(org, position, 'another secret that is long enough....'),
  ]) {
    t.throws(() => decodeCursor(bad, org, secret), { instanceOf: InvalidCursorError }, bad);
  }
  t.throws(() => decodeCursor(cursor, randomUUID(), secret), { instanceOf: InvalidCursorError });
});
