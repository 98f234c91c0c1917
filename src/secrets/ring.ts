// A secret and the ones it replaced: new values are signed or sealed with the current one only, and what
// was signed or sealed with any of them is still accepted, so a secret can be rotated without breaking
// listing cursors, working documents or stored webhook secrets made before (docs/operations.md).

/** One secret, or the current one first and then those it replaced. */
export type SecretRing<T> = T | readonly T[];

/** The ring's secrets, the current one first. */
export function secretsOf<T>(ring: SecretRing<T>): readonly T[] {
  return Array.isArray(ring) ? (ring as readonly T[]) : [ring as T];
}
