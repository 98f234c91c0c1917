// MinIO clients: one for the service's own traffic, one that signs URLs for the public endpoint
// integrators download reports from (presigned URLs are bound to the host they were signed for).
import { Client } from 'minio';
import type { Config } from '../config.js';

function clientFor(endpoint: URL, config: Config['minio']): Client {
  const useSSL = endpoint.protocol === 'https:';
  return new Client({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // An explicit region keeps presigning offline: no bucket-location lookup against a host we may not reach.
    region: config.region,
  });
}

export interface Storage {
  client: Client;
  publicClient: Client;
  bucket: string;
}

export function createStorage(config: Pick<Config, 'minio'>): Storage {
  return {
    client: clientFor(config.minio.endpoint, config.minio),
    publicClient: clientFor(config.minio.publicEndpoint, config.minio),
    bucket: config.minio.bucket,
  };
}

export async function ensureBucket(storage: Storage, region: string): Promise<boolean> {
  if (await storage.client.bucketExists(storage.bucket)) return false;
  try {
    await storage.client.makeBucket(storage.bucket, region);
  } catch (err) {
    // Another process created it between the check and the call.
    if ((err as { code?: string }).code !== 'BucketAlreadyOwnedByYou') throw err;
  }
  return true;
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
export async function presignDownload(storage: Storage, key: string, seconds: number): Promise<{ url: string; expiresAt: Date }> {
  const signedAt = new Date();
  const url = await storage.publicClient.presignedGetObject(storage.bucket, key, seconds, {}, signedAt);
  return { url, expiresAt: new Date(Math.floor(signedAt.getTime() / 1000) * 1000 + seconds * 1000) };
}
