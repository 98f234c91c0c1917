// Webhook signing secrets: `whsec_` + 32 random base62 characters. The service must sign with them, so
// they are encrypted at rest (AES-256-GCM with the configured key), not hashed. A sealed secret names the
// key that sealed it (the first bytes of the key's SHA-256, so a rotation knows which key opens it) and is
// bound to its endpoint (the endpoint's id is GCM's associated data): copied onto another endpoint's row
// it opens no more.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secretsOf, type SecretRing } from '../secrets/ring.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateSigningSecret(): string {
  let out = '';
  while (out.length < 32) for (const b of randomBytes(48)) if (b < 248 && out.length < 32) out += BASE62[b % 62];
  return `whsec_${out}`;
}

/** The non-reversible hint shown in listings: the prefix and the last four characters. */
export function secretHint(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/** The sealing format: a version byte, then the key's id, iv, tag and ciphertext. */
const SEALED_V2 = 0x02;
const KEY_ID_BYTES = 4;

function keyId(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);
}

function associatedData(endpointId: string): Buffer {
  return Buffer.from(`webhook-endpoint:${endpointId}`, 'utf8');
}

/** 0x02 ‖ key id (4 bytes) ‖ iv (12) ‖ tag (16) ‖ ciphertext, bound to `endpointId`. */
export function encryptSecret(secret: string, key: Buffer, endpointId: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(endpointId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([SEALED_V2]), keyId(key), iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, aad?: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/**
 * Opens the sealed secret of endpoint `endpointId` with the key of the ring that sealed it. A secret sealed
 * before secrets named their key (iv ‖ tag ‖ ciphertext, not bound to the endpoint) is opened by trying
 * each key; `admin webhook-secrets reseal` seals it anew.
 */
export function decryptSecret(sealed: Buffer, key: SecretRing<Buffer>, endpointId: string): string {
  const keys = secretsOf(key);
  if (sealed[0] === SEALED_V2 && sealed.length > 1 + KEY_ID_BYTES + 28) {
    const id = sealed.subarray(1, 1 + KEY_ID_BYTES);
    const sealer = keys.find((k) => keyId(k).equals(id));
    const rest = sealed.subarray(1 + KEY_ID_BYTES);
    if (sealer) return open(sealer, rest.subarray(0, 12), rest.subarray(12, 28), rest.subarray(28), associatedData(endpointId));
  }
  for (const [i, k] of keys.entries()) {
    try {
      return open(k, sealed.subarray(0, 12), sealed.subarray(12, 28), sealed.subarray(28));
    } catch (err) {
      if (i === keys.length - 1) throw err;
    }
  }
  throw new Error('no key to open the secret with');
}
