// Arriving streams are written to MinIO once, in parts sent two at a time, tagged transient, and measured
// (size and SHA-256 of exactly the bytes stored); a stream that fails part-way, or grows past its limit,
// leaves neither an object nor an open multipart upload behind.
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { putStream } from '../../src/storage/minio.js';
import { PART_BYTES, SMALL_BYTES } from '../../src/storage/stream-upload.js';
import { bytesOf, isTransient, keysUnder, sha256, storage } from '../support/objects.js';
import { closeShared } from '../support/stack.js';

test.after.always(closeShared);

/** `bytes` as a stream of uneven chunks, as a socket delivers them. */
function chunked(bytes: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0, n = 1; at < bytes.length; n = (n * 7919) % 100_003) {
        yield bytes.subarray(at, at + 1 + n);
        at += 1 + n;
      }
    })(),
  );
}

for (const [title, size] of [
  ['empty', 0],
  ['of a few kilobytes', 1234],
  ['of exactly a small stream', SMALL_BYTES],
  ['a small stream and a byte', SMALL_BYTES + 1],
  ['exactly one part', PART_BYTES],
  ['a part and a byte', PART_BYTES + 1],
  ['three parts and a short one', 3 * PART_BYTES + 4321],
] as const) {
  test(`a stream ${title} is stored whole, byte for byte, transient, and measured`, async (t) => {
    const key = `uploads/test/${randomUUID()}`;
    const bytes = randomBytes(size);
    const stored = await putStream(storage, key, chunked(bytes), 'application/pdf');
    t.deepEqual(stored, { size, sha256: sha256(bytes) });
    t.is(sha256(await bytesOf(key)), sha256(bytes));
    t.true(await isTransient(key));
    t.is((await storage.client.statObject(storage.bucket, key)).metaData['content-type'], 'application/pdf');
  });
}

test('streams stored at the same time keep their own bytes and hashes', async (t) => {
  const streams = [2 * PART_BYTES + 17, 3 * PART_BYTES + 1, 5000].map((size) => ({
    key: `uploads/test/${randomUUID()}`,
    bytes: randomBytes(size),
  }));
  const stored = await Promise.all(streams.map((s) => putStream(storage, s.key, chunked(s.bytes), 'application/pdf')));
  for (const [i, s] of streams.entries()) {
    t.deepEqual(stored[i], { size: s.bytes.length, sha256: sha256(s.bytes) });
    t.is(sha256(await bytesOf(s.key)), sha256(s.bytes));
  }
});

test(
  'a stream past its limit fails as the limit says, mid-way, leaving no object and no ' + 'multipart upload',
  async (t) => {
    const key = `uploads/test/${randomUUID()}`;
    let produced = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          produced += 1024 * 1024;
          yield randomBytes(1024 * 1024);
        }
      })(),
    );
    const limit = { maxBytes: 2 * PART_BYTES + 5, tooLarge: () => new Error('too large') };
    await t.throwsAsync(putStream(storage, key, endless, 'application/pdf', limit), { message: 'too large' });
    // Read no further than the limit (and what the stream had buffered ahead): it was stopped, not drained.
    t.true(produced < limit.maxBytes + 32 * 1024 * 1024);
    t.true(endless.destroyed);
    t.deepEqual(await keysUnder(key), []);
    const open: string[] = [];
    for await (const u of storage.client.listIncompleteUploads(storage.bucket, key, true)) open.push(u.key);
    t.deepEqual(open, []);
  },
);

test('a small stream past its limit fails as the limit says and leaves no object', async (t) => {
  const key = `uploads/test/${randomUUID()}`;
  await t.throwsAsync(
    putStream(storage, key, chunked(randomBytes(5000)), 'application/pdf', {
      maxBytes: 4999,
      tooLarge: () => new Error('too large'),
    }),
    { message: 'too large' },
  );
  t.deepEqual(await keysUnder(key), []);
});

test('a stream of exactly its limit is stored', async (t) => {
  const key = `uploads/test/${randomUUID()}`;
  const bytes = randomBytes(PART_BYTES + 3);
  const stored = await putStream(storage, key, chunked(bytes), 'application/pdf', {
    maxBytes: bytes.length,
    tooLarge: () => new Error('too large'),
  });
  t.deepEqual(stored, { size: bytes.length, sha256: sha256(bytes) });
});

test('a stream failing after several parts leaves no object and no multipart upload', async (t) => {
  const key = `uploads/test/${randomUUID()}`;
  const failing = Readable.from(
    (async function* () {
      for (let i = 0; i < 3; i++) yield randomBytes(PART_BYTES);
      throw new Error('client went away');
    })(),
  );
  await t.throwsAsync(putStream(storage, key, failing, 'application/pdf'), { message: 'client went away' });
  t.deepEqual(await keysUnder(key), []);
  const open: string[] = [];
  for await (const u of storage.client.listIncompleteUploads(storage.bucket, key, true)) open.push(u.key);
  t.deepEqual(open, []);
});
