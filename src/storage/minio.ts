// MinIO clients: one for the service's own traffic, one that signs URLs for the public endpoint
// integrators download reports from (presigned URLs are bound to the host they were signed for), as the
// presign user when one is configured.
import { PassThrough, type Readable } from 'node:stream';
import { Client, CopyConditions, type LifecycleRule, type Tag } from 'minio';
import { TRANSIENT_TAG } from './keys.js';
import { unsignedPayloads, uploadStream, type StoredStream, type StreamLimit } from './stream-upload.js';
import type { Config } from '../config.js';

function clientFor(
  endpoint: URL,
  config: Config['minio'],
  credentials: { accessKey: string; secretKey: string } = config,
): Client {
  const useSSL = endpoint.protocol === 'https:';
  return new Client({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: credentials.accessKey,
    secretKey: credentials.secretKey,
    // An explicit region keeps presigning offline: no bucket-location lookup against a host we may not reach.
    region: config.region,
    // AWS S3 endpoints get virtual-hosted requests whatever this says (the client knows them).
    pathStyle: !config.virtualHosted,
  });
}

export interface Storage {
  client: Client;
  /** The same server, for streamed uploads: payloads unsigned, as the callers hash what they store. */
  uploader: Client;
  publicClient: Client;
  bucket: string;
}

export function createStorage(config: Pick<Config, 'minio'>): Storage {
  return {
    client: clientFor(config.minio.endpoint, config.minio),
    uploader: unsignedPayloads(clientFor(config.minio.endpoint, config.minio)),
    // Report links name their signer's access key id: the presign user's, allowed to read reports only.
    publicClient: clientFor(config.minio.publicEndpoint, config.minio, config.minio.presign),
    bucket: config.minio.bucket,
  };
}

/** Creates the bucket if missing and (always, idempotently) the expiry rule of unkept uploads. */
export async function ensureBucket(storage: Storage, region: string): Promise<boolean> {
  let created = false;
  if (!(await storage.client.bucketExists(storage.bucket))) {
    try {
      await storage.client.makeBucket(storage.bucket, region);
      created = true;
    } catch (err) {
      // Another process created it between the check and the call.
      if ((err as { code?: string }).code !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }
  await expireUnkeptUploads(storage);
  return created;
}

/** Whether an object is stored; other failures (MinIO down) are thrown, not read as "missing". */
export async function objectExists(storage: Storage, key: string): Promise<boolean> {
  try {
    await storage.client.statObject(storage.bucket, key);
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'NotFound' || code === 'NoSuchKey') return false;
    throw err;
  }
}

/** A GET URL for the public endpoint, valid `seconds` from now, and when it expires. */
export async function presignDownload(
  storage: Storage,
  key: string,
  seconds: number,
): Promise<{ url: string; expiresAt: Date }> {
  const signedAt = new Date();
  const url = await storage.publicClient.presignedGetObject(storage.bucket, key, seconds, {}, signedAt);
  return { url, expiresAt: new Date(Math.floor(signedAt.getTime() / 1000) * 1000 + seconds * 1000) };
}

/**
 * Stores an arriving stream of unknown length (an upload, a fetched source, an unpacked member), once, and
 * hashes it on the way (stream-upload.ts), failing past `limit` when given; tagged transient: it expires unless
 * `keepObject` is called for it. Its size and SHA-256 are those of exactly the bytes stored.
 */
export async function putStream(
  storage: Storage,
  key: string,
  stream: Readable,
  contentType: string,
  limit?: StreamLimit,
): Promise<StoredStream> {
  const tagging = `${TRANSIENT_TAG.key}=${TRANSIENT_TAG.value}`;
  return uploadStream(
    storage.uploader,
    storage.bucket,
    key,
    stream,
    { 'Content-Type': contentType, 'X-Amz-Tagging': tagging },
    limit,
  );
}

/** Keeps an arrived object for good where it lies (a metadata change; its bytes are not touched). */
export async function keepObject(storage: Storage, key: string): Promise<void> {
  // An empty versionId is the object's only version (the bucket is not versioned).
  await storage.client.removeObjectTagging(storage.bucket, key, { versionId: '' });
}

/** Stores a small object held in memory (a rendered report). */
export async function putBuffer(storage: Storage, key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await storage.client.putObject(storage.bucket, key, Buffer.from(bytes), bytes.length, {
    'Content-Type': contentType,
  });
}

export async function objectSize(storage: Storage, key: string): Promise<number> {
  return (await storage.client.statObject(storage.bucket, key)).size;
}

export function readObject(storage: Storage, key: string): Promise<Readable> {
  return storage.client.getObject(storage.bucket, key);
}

/** A whole object in memory: for documents the analysis reads one at a time (bounded by the per-file limit). */
export async function readBuffer(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await readObject(storage, key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Bytes [start, end) of an object, as a stream available at once (yauzl asks synchronously). */
export function readObjectRange(storage: Storage, key: string, start: number, end: number): Readable {
  const out = new PassThrough();
  storage.client.getPartialObject(storage.bucket, key, start, end - start).then(
    (s) => {
      s.on('error', (err) => out.destroy(err));
      s.pipe(out);
    },
    (err: Error) => out.destroy(err),
  );
  return out;
}

export async function copyObject(storage: Storage, from: string, to: string): Promise<void> {
  const conditions = new CopyConditions();
  await storage.client.copyObject(storage.bucket, to, `/${storage.bucket}/${from}`, conditions);
}

export async function removeObjects(storage: Storage, keys: string[]): Promise<void> {
  if (keys.length > 0) await storage.client.removeObjects(storage.bucket, keys);
}

/** Every object whose key starts with `prefix` (listed and removed a page at a time); how many. */
export async function removePrefix(storage: Storage, prefix: string): Promise<number> {
  let removed = 0;
  let page: string[] = [];
  for await (const item of storage.client.listObjectsV2(storage.bucket, prefix, true) as AsyncIterable<{
    name?: string;
  }>) {
    if (item.name) page.push(item.name);
    if (page.length === 1000) {
      await removeObjects(storage, page);
      removed += page.length;
      page = [];
    }
  }
  await removeObjects(storage, page);
  return removed + page.length;
}

/**
 * A lifecycle filter on one tag, as S3 takes it (<Filter><Tag><Key/><Value/></Tag></Filter>, and nothing
 * beside the Tag); minio-js's type asks for a Prefix always and a list of tags, which S3 refuses.
 */
type RuleFilter = NonNullable<LifecycleRule['Filter']>;
function tagFilter(tag: Tag): RuleFilter {
  const filter = { Tag: tag };
  return filter as unknown as RuleFilter;
}

/**
 * Arrivals no review kept (a client that went away, a refused submission whose clean-up was cut short, a
 * crashed API) expire after a day: under uploads/ while still tagged transient. (Abandoned multipart
 * uploads are MinIO's own to clear, after a day too.)
 */
export async function expireUnkeptUploads(storage: Storage): Promise<void> {
  await storage.client.setBucketLifecycle(storage.bucket, {
    Rule: [
      {
        ID: 'expire-transient-uploads',
        Status: 'Enabled',
        // Only arrivals under uploads/ are ever tagged so.
        Filter: tagFilter({ Key: TRANSIENT_TAG.key, Value: TRANSIENT_TAG.value }),
        Expiration: { Days: 1 },
      },
    ],
  });
}
