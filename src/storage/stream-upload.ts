// Writing a stream of unknown length to MinIO, each byte once and hashed by no one here. minio-js's own
// putObject hashed every part twice more (MD5 for Content-MD5, SHA-256 to sign the payload on plain
// HTTP) and sent its 5 MiB parts one after another, waiting on each; the callers already hash what they
// store (the upload's meter, the unpacker's), so the parts here are sent as UNSIGNED-PAYLOAD (what minio-js
// does over HTTPS anyway), larger, and two at a time while the next one fills.
import type { Readable } from 'node:stream';
import type { Client } from 'minio';

/** Bytes per part: with two parts in flight and one filling, an upload holds at most ~3 × this. */
export const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** The client the stream uploads go through; signs payloads as UNSIGNED-PAYLOAD (see above). */
export function unsignedPayloads(client: Client): Client {
  client.enableSHA256 = false;
  return client;
}

/** Cuts a stream into buffers of exactly `size` bytes, the last one shorter (never empty). */
async function* partsOf(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    let rest = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    while (length + rest.length >= size) {
      const take = size - length;
      held.push(rest.subarray(0, take));
      yield Buffer.concat(held, size);
      rest = rest.subarray(take);
      held = [];
      length = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(held, length);
}

/**
 * Stores `stream` under `key`: one PUT when it fits in a part, else a multipart upload that is aborted
 * if the stream or any part fails (nothing half-written is left to be read).
 */
export async function uploadStream(client: Client, bucket: string, key: string, stream: Readable, headers: Record<string, string>): Promise<void> {
  const parts = partsOf(stream, PART_BYTES);
  const first = await parts.next();
  const firstPart = first.done ? Buffer.alloc(0) : first.value;
  if (firstPart.length < PART_BYTES) {
    // The stream ended within one part (or empty: a multipart upload needs at least one part).
    await client.makeRequestAsyncOmit({ method: 'PUT', bucketName: bucket, objectName: key, headers: { ...headers } }, firstPart, [200]);
    return;
  }
  const uploadId = await client.initiateNewMultipartUpload(bucket, key, { ...headers });
  const etags: { part: number; etag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = (part: number, payload: Buffer) => {
    const sending: Promise<void> = client
      .uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} }, payload)
      .then(({ etag }) => {
        etags.push({ part, etag });
      })
      .finally(() => inFlight.delete(sending));
    // A failure is seen where the part is awaited below; until then it must not count as unhandled.
    sending.catch(() => {});
    inFlight.add(sending);
  };
  try {
    let part = 1;
    send(part, firstPart);
    for await (const payload of parts) {
      // Reading the next part waits while two are still being sent: the stream is held back, not buffered.
      while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
      send(++part, payload);
    }
    await Promise.all(inFlight);
    etags.sort((a, b) => a.part - b.part);
    await client.completeMultipartUpload(bucket, key, uploadId, etags);
  } catch (err) {
    // The stream is read no further (closing the reader destroys it), so whoever feeds it hears of the
    // failure instead of waiting on a stream nobody drains.
    await parts.return(undefined).catch(() => undefined);
    await Promise.allSettled(inFlight);
    await client.abortMultipartUpload(bucket, key, uploadId).catch(() => {});
    throw err;
  }
}
