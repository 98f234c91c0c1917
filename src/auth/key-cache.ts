// What an API process remembers of the keys it has looked up, so that a read does not pay a key lookup on
// every request. An entry lives at most `ttlMs`: that bounds how long a revoked key can still be used when
// the change notice (src/db/key-changes.ts) was missed. Keys not found are never remembered: a key made a
// moment ago must work at once. Expiry is checked by the caller at every use, from the entry's record.
import type { AuthenticatedKey } from '../db/keys.js';

/** Keys remembered at most; the oldest looked-up is forgotten first. Far above any one fleet's keys in use. */
const MAX_ENTRIES = 10_000;

interface Entry {
  record: AuthenticatedKey;
  until: number;
}

/** When a lookup began, and what the cache had forgotten by then. */
export interface LookupMark {
  forgotten: number;
  at: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Counts forgettings. A lookup that was under way when a change was announced may have read the key as it
   * was before; it is not remembered (see `remember`).
   */
  private forgotten = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: Buffer): AuthenticatedKey | undefined {
    const id = hash.toString('hex');
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.record;
  }

  /** Where a lookup starts: pass it to `remember` with what the lookup found. */
  mark(): LookupMark {
    return { forgotten: this.forgotten, at: this.now() };
  }

  /**
   * Remembers what a lookup found for `ttlMs` from when the lookup began, not from when it answered: what
   * it read is at least that old, so a key revoked at T is never given back from memory at T + ttlMs or
   * later, however long the lookup took (docs/operations.md states the bound).
   */
  remember(hash: Buffer, record: AuthenticatedKey, lookedUp: LookupMark): void {
    if (this.ttlMs <= 0 || lookedUp.forgotten !== this.forgotten) return;
    const until = lookedUp.at + this.ttlMs;
    if (until <= this.now()) return;
    const id = hash.toString('hex');
    this.entries.delete(id);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { record, until });
  }

  /** A key changed (its hash in hex). */
  forgetKey(hashHex: string): void {
    this.forgotten++;
    this.entries.delete(hashHex.toLowerCase());
  }

  /** An organization changed: every key of it is looked up afresh. */
  forgetOrganization(organizationId: string): void {
    this.forgotten++;
    for (const [id, entry] of this.entries) if (entry.record.organizationId === organizationId) this.entries.delete(id);
  }

  /** Notices may have been missed (the listener reconnected): nothing remembered is trusted. */
  forgetAll(): void {
    this.forgotten++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
