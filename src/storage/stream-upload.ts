// Writing a stream of unknown length to MinIO, each byte copied once into a part and hashed once. The
// stream is cut into parts of PART_BYTES; a full part is sent, then handed to the hashing thread
// (sha256-thread.ts) while the next parts fill and go, so that hashing overlaps receiving and sending
// instead of adding to them on the main thread. A part's buffer is reused once it is sent and hashed, by
// this upload and then by the next: not a fresh one per part, whose allocation and collection cost the API
// more than copying into it does (garbage collections forced by external memory every ~100 ms). Parts go
// as UNSIGNED-PAYLOAD (no SHA-256 for signing, no Content-MD5: what minio-js does over HTTPS anyway), two
// at a time while the next one fills. A small stream (most documents) needs none of this: it is held as
// it came, then sent in one PUT and hashed on the spot (SMALL_BYTES).
import type { ByteBudget } from '../streams/byte-budget.js';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import { ThreadedSha256 } from './sha256-thread.js';

/**
 * A stream of at most this many bytes (most documents) is held as the chunks it came in, then sent in one
 * PUT and hashed on the spot: a part buffer of PART_BYTES for each of a burst of small uploads was
 * allocated and collected for nothing, and handing a few kilobytes to the hashing thread costs more than
 * hashing them.
 */
export const SMALL_BYTES = 1024 * 1024;

/** Bytes per part: with two parts in flight and one filling, an upload holds at most 3 × this. */
export const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Part buffers kept between uploads: one upload's worth (two in flight, one filling), so that one big
 * upload after another allocates nothing. Concurrent uploads allocate more and leave those to the
 * collector. Each is a whole ArrayBuffer of its own, as the hashing thread takes it whole.
 */
const spare: Buffer[] = [];
const SPARE_BUFFERS = PARTS_IN_FLIGHT + 1;

/** What was stored: its size and its SHA-256 (hex), of exactly the bytes sent. */
export interface StoredStream {
  size: number;
  sha256: string;
}

/** The most a stream may hold, and the error it fails with past that (thrown as soon as it is seen); none: any size. */
export interface StreamLimit {
  maxBytes: number;
  tooLarge: () => Error;
  /** A budget this stream shares with the other files of its request (the review's aggregate limit). */
  shared?: ByteBudget;
}

/** The client the stream uploads go through; signs payloads as UNSIGNED-PAYLOAD (see above). */
export function unsignedPayloads(client: Client): Client {
  client.enableSHA256 = false;
  return client;
}

/**
 * Stores `stream` under `key` and measures it: one PUT when it fits in a part, else a multipart upload that
 * is aborted if the stream, the limit or any part fails (nothing half-written is left to be read).
 */
export async function uploadStream(
  client: Client,
  bucket: string,
  key: string,
  stream: Readable,
  headers: Record<string, string>,
  limit?: StreamLimit,
): Promise<StoredStream> {
  const hash = new ThreadedSha256();
  // This upload's buffers that are neither filling, being sent nor being hashed; `spare` gets them at the end.
  const free: Buffer[] = [];
  let filling: Buffer | undefined;
  let filled = 0;
  let size = 0;
  let part = 0;
  let uploadId: string | undefined;
  const etags: { part: number; etag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let hashedSoFar: Promise<unknown> = Promise.resolve();

  // Hashes a sent part's bytes after the parts before it; the thread hands its buffer back, free again.
  const hashAfter = (sent: Promise<unknown>, bytes: Buffer): Promise<void> => {
    const hashed = Promise.all([sent, hashedSoFar]).then(() => hash.update(bytes));
    hashedSoFar = hashed;
    return hashed.then((back) => {
      free.push(Buffer.from(back.buffer));
    });
  };

  // A full part (or the last one) is sent at once, and hashed once sent.
  const dispatch = async (buffer: Buffer, length: number) => {
    while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
    const number = ++part;
    uploadId ??= await client.initiateNewMultipartUpload(bucket, key, { ...headers });
    const payload = buffer.subarray(0, length);
    const sent = client
      .uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: number, headers: {} }, payload)
      .then(({ etag }) => {
        etags.push({ part: number, etag });
      });
    const done: Promise<void> = hashAfter(sent, payload).finally(() => inFlight.delete(done));
    // A failure is seen where the part is awaited; until then it must not count as unhandled.
    done.catch(() => {});
    inFlight.add(done);
  };

  // Copies bytes into the part filling, sending each part as it fills.
  const copyIn = async (bytes: Buffer) => {
    for (let at = 0; at < bytes.length; ) {
      // Two parts in flight and one filling is three buffers; a fourth is never needed (see dispatch).
      filling ??= free.pop() ?? spare.pop() ?? Buffer.allocUnsafeSlow(PART_BYTES);
      const copied = bytes.copy(filling, filled, at);
      filled += copied;
      at += copied;
      if (filled === PART_BYTES) {
        const full = filling;
        filling = undefined;
        filled = 0;
        await dispatch(full, PART_BYTES);
      }
    }
  };

  // A small stream's chunks as they came, until it proves bigger than SMALL_BYTES.
  let small: Buffer[] | undefined = [];
  try {
    // Not destroyed on leaving the loop early: on a failure it is destroyed below with that failure, which
    // is what whoever feeds it hears (multer answers the request with it), not a bare AbortError.
    for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      // Counted as it arrives, before anything of it is stored: the limit stops the stream mid-way.
      if (limit && size > limit.maxBytes) throw limit.tooLarge();
      limit?.shared?.take(bytes.length);
      if (small && size <= SMALL_BYTES) {
        small.push(bytes);
        continue;
      }
      if (small) {
        // Bigger than a small stream: what it held goes first into the first part, as if it came now.
        for (const earlier of small) await copyIn(earlier);
        small = undefined;
      }
      await copyIn(bytes);
    }
    if (small) {
      // The whole stream was small: one PUT of its bytes, hashed here (a few milliseconds at most).
      const payload = Buffer.concat(small, size);
      await client.makeRequestAsyncOmit(
        { method: 'PUT', bucketName: bucket, objectName: key, headers: { ...headers } },
        payload,
        [200],
      );
      return { size, sha256: createHash('sha256').update(payload).digest('hex') };
    }
    const last = filling;
    filling = undefined;
    if (part === 0) {
      // The stream ended within one part (or empty): one PUT, as a multipart upload needs a part of 5 MiB.
      const payload = last ? last.subarray(0, filled) : Buffer.alloc(0);
      const sent = client.makeRequestAsyncOmit(
        { method: 'PUT', bucketName: bucket, objectName: key, headers: { ...headers } },
        payload,
        [200],
      );
      await (last ? hashAfter(sent, payload) : sent);
      return { size, sha256: await hash.digest() };
    }
    if (last && filled > 0) await dispatch(last, filled);
    else if (last) free.push(last);
    await Promise.all(inFlight);
    if (uploadId === undefined) throw new Error('a multipart upload sent parts without an upload id');
    etags.sort((a, b) => a.part - b.part);
    const [, sha256] = await Promise.all([client.completeMultipartUpload(bucket, key, uploadId, etags), hash.digest()]);
    return { size, sha256 };
  } catch (err) {
    hash.dispose();
    // The stream is read no further, so whoever feeds it hears of the failure (as pipeline() would tell
    // it) instead of waiting on a stream nobody drains; the failure is ours to throw, so a stream nobody
    // else listens to must not raise it again as an uncaught 'error'.
    if (!stream.destroyed) {
      stream.on('error', () => {});
      stream.destroy(err instanceof Error ? err : undefined);
    }
    await Promise.allSettled(inFlight);
    if (uploadId !== undefined) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => {});
    throw err;
  } finally {
    if (filling) free.push(filling);
    spare.push(...free.splice(0, SPARE_BUFFERS - spare.length));
  }
}
