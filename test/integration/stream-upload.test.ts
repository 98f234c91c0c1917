// Arriving streams are written to MinIO once, in parts sent two at a time, tagged transient; a stream that
// fails part-way leaves neither an object nor an open multipart upload behind.
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { putStream } from '../../src/storage/minio.js';
import { PART_BYTES } from '../../src/storage/stream-upload.js';
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
  ['shorter than a part', 1234],
  ['exactly one part', PART_BYTES],
  ['a part and a byte', PART_BYTES + 1],
  ['three parts and a short one', 3 * PART_BYTES + 4321],
] as const) {
  test(`a stream ${title} is stored whole, byte for byte, and transient`, async (t) => {
    const key = `uploads/test/${randomUUID()}`;
    const bytes = randomBytes(size);
    await putStream(storage, key, chunked(bytes), 'application/pdf');
    t.is(sha256(await bytesOf(key)), sha256(bytes));
    t.true(await isTransient(key));
    t.is((await storage.client.statObject(storage.bucket, key)).metaData['content-type'], 'application/pdf');
  });
}

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
