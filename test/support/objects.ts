// The stack's MinIO as tests see it: what objects exist, and their bytes.
import { createHash } from 'node:crypto';
import { TRANSIENT_TAG } from '../../src/storage/keys.js';
import { createStorage, readObject } from '../../src/storage/minio.js';
import { config, db } from './stack.js';

export const storage = createStorage(config);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every object key under a prefix, sorted. */
export async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.client.listObjectsV2(storage.bucket, prefix, true)) if (o.name) keys.push(o.name);
  return keys.sort();
}

/** Whether an object still carries the transient tag (it expires unless a review keeps it). */
export async function isTransient(key: string): Promise<boolean> {
  const tags = await storage.client.getObjectTagging(storage.bucket, key);
  return tags.some((tag) => tag.Key === TRANSIENT_TAG.key && String(tag.Value) === TRANSIENT_TAG.value);
}

/** The keys under a prefix that still carry the transient tag, sorted. */
export async function transientUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const key of await keysUnder(prefix)) if (await isTransient(key)) keys.push(key);
  return keys;
}

/** The SHA-256 of the bytes stored for each of a review's documents (read from where its row says), sorted. */
export async function storedDocuments(reviewId: string): Promise<string[]> {
  const rows = await db()<{ object_key: string }[]>`select object_key from documents where review_id = ${reviewId}`;
  return (await Promise.all(rows.map(async (r) => sha256(await bytesOf(r.object_key))))).sort();
}

/** What lies under a prefix that no document names, or that is still transient: what no finished submission leaves. */
export async function leftUnder(prefix: string): Promise<string[]> {
  const named = new Set(
    (await db()<{ object_key: string }[]>`select object_key from documents where object_key like ${`${prefix}%`}`).map(
      (r) => r.object_key,
    ),
  );
  const left: string[] = [];
  for (const key of await keysUnder(prefix)) if (!named.has(key) || (await isTransient(key))) left.push(key);
  return left;
}

export async function bytesOf(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await readObject(storage, key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
