// Webhook signing secrets: `whsec_` + 32 random base62 characters. The service must sign with them, so
// they are encrypted at rest (AES-256-GCM with the configured key), not hashed.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
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

/** iv (12 bytes) ‖ tag (16 bytes) ‖ ciphertext. */
export function encryptSecret(secret: string, key: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Opens a sealed secret with whichever key of the ring sealed it (GCM's tag tells a wrong key). */
export function decryptSecret(sealed: Buffer, key: SecretRing<Buffer>): string {
  const keys = secretsOf(key);
  for (const [i, k] of keys.entries()) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', k, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    } catch (err) {
      if (i === keys.length - 1) throw err;
    }
  }
  throw new Error('no key to open the secret with');
}
