// The stack's MinIO as tests see it: what objects exist, and their bytes.
import { createHash } from 'node:crypto';
import { createStorage, readObject } from '../../src/storage/minio.js';
import { config } from './stack.js';

export const storage = createStorage(config);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every object key under a prefix, sorted. */
export async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.client.listObjectsV2(storage.bucket, prefix, true)) if (o.name) keys.push(o.name);
  return keys.sort();
}

export async function bytesOf(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await readObject(storage, key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
