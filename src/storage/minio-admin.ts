// The few calls of MinIO's admin API that give the service its own users (service-users.ts), made with
// the root (or an admin) credentials by setup only: a canned policy, a user, the policy attached to it, once
// the server has loaded what it had.
// Requests are signed with AWS Signature V4 by the minio package's signer, as every MinIO request is; a
// user's secret travels sealed as MinIO's admin client seals it (madmin EncryptData: PBKDF2-SHA256 from
// the caller's secret key, then one sio stream of AES-256-GCM), never in the clear, even over plain HTTP.
// The minio package has no admin API and no EncryptData; `mc admin` would need its binary in the image and
// the root credentials on its command line, so these four calls and the seal are written here.
import { createCipheriv, createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { signV4 } from 'minio/dist/esm/signing.mjs';

export interface MinioAdminTarget {
  endpoint: URL;
  region: string;
  accessKey: string;
  secretKey: string;
}

const ADMIN_PREFIX = '/minio/admin/v3';

/** madmin's algorithm id for PBKDF2-SHA256 and AES-256-GCM, and its PBKDF2 cost. */
const PBKDF2_AES_GCM = 0x02;
const PBKDF2_COST = 8192;
/** sio's fragment size: a message shorter than this is one final fragment. */
const SIO_BUFFER = 1 << 14;

/**
 * salt (32) ‖ algorithm id (1) ‖ nonce (8) ‖ sio stream. For a message within one fragment the stream is
 * one AES-GCM seal with nonce ‖ LE32(1), whose associated data is 0x80 (final) ‖ the tag of an empty seal
 * with nonce ‖ LE32(0): what sio-go's EncWriter writes.
 */
export function sealForMinioAdmin(password: string, plaintext: Buffer): Buffer {
  if (plaintext.length >= SIO_BUFFER) throw new Error('an admin request body is at most one sio fragment');
  const salt = randomBytes(32);
  const key = pbkdf2Sync(password, salt, PBKDF2_COST, 32, 'sha256');
  const nonce = randomBytes(8);
  const nonceFor = (seq: number) => {
    const n = Buffer.alloc(12);
    nonce.copy(n);
    n.writeUInt32LE(seq, 8);
    return n;
  };
  const header = createCipheriv('aes-256-gcm', key, nonceFor(0));
  header.final();
  const associatedData = Buffer.concat([Buffer.from([0x80]), header.getAuthTag()]);
  const cipher = createCipheriv('aes-256-gcm', key, nonceFor(1));
  cipher.setAAD(associatedData);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([salt, Buffer.from([PBKDF2_AES_GCM]), nonce, body]);
}

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding, as Signature V4 canonicalises query strings. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The headers of a Signature V4 request for service s3, signed by the minio package's own signer. */
export function signedHeaders(
  target: MinioAdminTarget,
  method: string,
  path: string,
  query: Record<string, string>,
  body: Buffer,
  now = new Date(),
): Record<string, string> {
  const headers: Record<string, string> = {
    host: target.endpoint.host,
    'x-amz-content-sha256': sha256Hex(body),
    'x-amz-date': now.toISOString().replace(/[-:]|\.\d{3}/g, ''),
  };
  const canonicalQuery = Object.keys(query)
    .map((k) => `${encode(k)}=${encode(query[k]!)}`)
    .join('&');
  const request = { protocol: target.endpoint.protocol, method, path: `${path}?${canonicalQuery}`, headers };
  const authorization = signV4(
    request,
    target.accessKey,
    target.secretKey,
    target.region,
    now,
    headers['x-amz-content-sha256']!,
  );
  return { ...headers, authorization };
}

/**
 * How long a call is tried again while MinIO answers 503: a server that has just started answers
 * XMinioServerNotInitialized ("please try again") until its users and policies are loaded.
 */
export const NOT_READY_RETRY_MS = 30_000;
const NOT_READY_PAUSE_MS = 250;

export async function adminCall(
  target: MinioAdminTarget,
  method: 'PUT' | 'GET',
  operation: string,
  query: Record<string, string>,
  body: Buffer = Buffer.alloc(0),
  retryForMs = NOT_READY_RETRY_MS,
): Promise<void> {
  const path = `${ADMIN_PREFIX}/${operation}`;
  const url = new URL(path, target.endpoint);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const started = Date.now();
  for (;;) {
    // Signed afresh each time: the signature carries its time.
    const res = await fetch(url, {
      method,
      headers: signedHeaders(target, method, path, query, body),
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.ok) return;
    if (res.status === 503 && Date.now() - started < retryForMs) {
      await new Promise((resolve) => setTimeout(resolve, NOT_READY_PAUSE_MS));
      continue;
    }
    throw new Error(`MinIO admin ${operation} answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

/**
 * Resolves once MinIO has loaded its users and policies since it started. It answers writes as soon as its
 * IAM store exists (503 before), but its first load from disk then replaces the cache whatever was written
 * meanwhile (cmd/iam-store.go, LoadIAMCache), so that a policy or user made in that moment is missing
 * until the next periodic refresh, minutes later: attaching the policy answers 404 XMinioAdminNoSuchPolicy,
 * or the user's key is refused. Listing users is answered only after that load; its answer is not needed.
 */
export function iamLoaded(target: MinioAdminTarget): Promise<void> {
  return adminCall(target, 'GET', 'list-users', {});
}

/** Creates or replaces the canned policy `name`. */
export function putCannedPolicy(target: MinioAdminTarget, name: string, policy: object): Promise<void> {
  return adminCall(target, 'PUT', 'add-canned-policy', { name }, Buffer.from(JSON.stringify(policy)));
}

/** Creates the user, or sets its secret (and enables it) when it exists. */
export function putUser(target: MinioAdminTarget, accessKey: string, secretKey: string): Promise<void> {
  const body = sealForMinioAdmin(target.secretKey, Buffer.from(JSON.stringify({ secretKey, status: 'enabled' })));
  return adminCall(target, 'PUT', 'add-user', { accessKey }, body);
}

/** Makes `policy` the user's one policy. */
export function setUserPolicy(target: MinioAdminTarget, accessKey: string, policy: string): Promise<void> {
  return adminCall(target, 'PUT', 'set-user-or-group-policy', {
    policyName: policy,
    userOrGroup: accessKey,
    isGroup: 'false',
  });
}
