// Failed authentications counted per client address in fixed one-minute windows, in this process: an
// address that tried more distinct unknown keys than the limit is refused before its keys are looked up
// until its window ends, so a flood of made-up keys costs the database nothing more. The same wrong key
// sent again (a misconfigured client retrying) counts once. Memory is bounded: past `maxTracked`
// addresses the expired windows go, then the oldest.

export class FailureWindows {
  private readonly windows = new Map<string, { start: number; keys: Set<string> }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxTracked = 100_000,
  ) {}

  /** How long `client` must wait before it is heard again (0: now). */
  retryAfterMs(client: string, now = Date.now()): number {
    const w = this.windows.get(client);
    if (!w || now - w.start >= this.windowMs || w.keys.size < this.limit) return 0;
    return w.start + this.windowMs - now;
  }

  /** Counts a failed authentication of `client` with `key` (an identifier of the key: its hash). */
  fail(client: string, key: string, now = Date.now()): void {
    const w = this.windows.get(client);
    if (w && now - w.start < this.windowMs) {
      if (w.keys.size < this.limit) w.keys.add(key);
      return;
    }
    this.windows.delete(client);
    this.windows.set(client, { start: now, keys: new Set([key]) });
    if (this.windows.size > this.maxTracked) this.prune(now);
  }

  /** Addresses tracked now. */
  get size(): number {
    return this.windows.size;
  }

  private prune(now: number): void {
    for (const [client, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(client);
    // Oldest first (a Map keeps insertion order, and a window is inserted anew when it starts).
    for (const client of this.windows.keys()) {
      if (this.windows.size <= this.maxTracked) break;
      this.windows.delete(client);
    }
  }
}
