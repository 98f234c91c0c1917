// Webhook signing secrets: `whsec_` + 32 random base62 characters. The service must sign with them, so
// they are encrypted at rest (AES-256-GCM with the configured key), not hashed. A sealed secret names the
// key that sealed it (the first bytes of the key's SHA-256, so a rotation knows which key opens it) and is
// bound to its endpoint (the endpoint's id is GCM's associated data): copied onto another endpoint's row
// it opens no more.
import { randomBytes } from 'node:crypto';
import { secretsOf, type SecretRing } from '../secrets/ring.js';
import { openSealed, seal } from '../secrets/sealing.js';

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

/** The sealing format: a version byte, then what src/secrets/sealing.ts seals (key id, iv, tag, ciphertext). */
const SEALED_V2 = 0x02;

function associatedData(endpointId: string): Buffer {
  return Buffer.from(`webhook-endpoint:${endpointId}`, 'utf8');
}

/** 0x02 ‖ key id (4 bytes) ‖ iv (12) ‖ tag (16) ‖ ciphertext, bound to `endpointId`. */
export function encryptSecret(secret: string, key: Buffer, endpointId: string): Buffer {
  return Buffer.concat([Buffer.from([SEALED_V2]), seal(Buffer.from(secret, 'utf8'), key, associatedData(endpointId))]);
}

/** Opens the sealed secret of endpoint `endpointId` with the key of the ring that sealed it. */
export function decryptSecret(sealed: Buffer, key: SecretRing<Buffer>, endpointId: string): string {
  let opened: Buffer | undefined;
  try {
    if (sealed[0] === SEALED_V2) opened = openSealed(sealed.subarray(1), secretsOf(key), associatedData(endpointId));
  } catch {
    // GCM's authentication failed: sealed for another endpoint, or altered.
  }
  if (!opened) throw new Error(`the signing secret of endpoint ${endpointId} opens with none of the configured keys`);
  return opened.toString('utf8');
}
