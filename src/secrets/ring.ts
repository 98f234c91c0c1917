// A secret and the ones it replaced: new values are signed or sealed with the current one only, and what
// was signed or sealed with any of them is still accepted, so a secret can be rotated without breaking
// listing cursors, working documents or stored webhook secrets made before (docs/operations.md).
import { timingSafeEqual } from 'node:crypto';

/** One secret, or the current one first and then those it replaced. */
export type SecretRing<T> = T | readonly T[];

/** The ring's secrets, the current one first. */
export function secretsOf<T>(ring: SecretRing<T>): readonly T[] {
  return Array.isArray(ring) ? (ring as readonly T[]) : [ring as T];
}

/** Whether `given` is the signature `sign` makes with one of the ring's secrets (compared in constant time). */
export function signedByAny(given: Buffer, ring: SecretRing<string>, sign: (secret: string) => Buffer): boolean {
  return secretsOf(ring).some((secret) => {
    const expected = sign(secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
