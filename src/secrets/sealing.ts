// Sealing with AES-256-GCM under a key ring: what is sealed names the key that sealed it (the first bytes
// of the key's SHA-256), so after a rotation the ring's matching key opens it and nothing is tried blindly.
// Optional associated data binds a sealed value to where it belongs (a webhook endpoint's id): copied
// elsewhere it opens no more. Used for webhook signing secrets at rest and for Temporal payloads.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secretsOf, type SecretRing } from './ring.js';

export const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key's public name: the first 4 bytes of its SHA-256. */
export function keyId(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);
}

/** key id (4 bytes) ‖ iv (12) ‖ tag (16) ‖ ciphertext. */
export function seal(plaintext: Buffer, key: Buffer, associatedData?: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (associatedData) cipher.setAAD(associatedData);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([keyId(key), iv, cipher.getAuthTag(), body]);
}

/** AES-256-GCM decryption; throws when the key, the tag or the associated data do not match. */
export function gcmOpen(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, associatedData?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (associatedData) decipher.setAAD(associatedData);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/**
 * Opens what `seal` made with the ring's key it names: undefined when the value is too short to be sealed
 * or no key of the ring has its id (a key retired too soon); throws when the key named fails to open it.
 */
export function openSealed(sealed: Buffer, ring: SecretRing<Buffer>, associatedData?: Buffer): Buffer | undefined {
  if (sealed.length < KEY_ID_BYTES + IV_BYTES + TAG_BYTES) return undefined;
  const id = sealed.subarray(0, KEY_ID_BYTES);
  const key = secretsOf(ring).find((k) => keyId(k).equals(id));
  if (!key) return undefined;
  const iv = sealed.subarray(KEY_ID_BYTES, KEY_ID_BYTES + IV_BYTES);
  const tag = sealed.subarray(KEY_ID_BYTES + IV_BYTES, KEY_ID_BYTES + IV_BYTES + TAG_BYTES);
  return gcmOpen(key, iv, tag, sealed.subarray(KEY_ID_BYTES + IV_BYTES + TAG_BYTES), associatedData);
}
