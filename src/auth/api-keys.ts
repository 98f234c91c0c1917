// API key format and hashing. Keys are `rk_live_…` or `rk_test_…` (sandbox) followed by 32 random
// base62 characters; only their SHA-256 is ever stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
export const KEY_PATTERN = /^rk_(live|test)_[0-9A-Za-z]{32}$/;
const PREFIX_LENGTH = 12; // "rk_live_" plus four random characters: enough to tell keys apart in a list

export interface GeneratedKey {
  key: string;
  hash: Buffer;
  prefix: string;
  sandbox: boolean;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // Rejection sampling keeps every character equally likely (248 = 4 × 62).
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function generateApiKey(sandbox: boolean): GeneratedKey {
  const key = `rk_${sandbox ? 'test' : 'live'}_${randomBase62(RANDOM_LENGTH)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, PREFIX_LENGTH), sandbox };
}

/** Constant-time comparison of two key hashes. */
export function sameKeyHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
