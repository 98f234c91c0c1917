// Failed authentications counted per client address in fixed one-minute windows, in this process: an
// address that tried more distinct unknown keys than the limit is refused before its keys are looked up
// until its window ends, so a flood of made-up keys costs the database nothing more. The same wrong key
// sent again (a misconfigured client retrying) counts once, and a key that authenticated here within the
// window is still heard (looked up as ever) when its address is held: another client behind the same
// address does not lock it out. Memory is bounded: past `maxTracked` addresses the expired windows go,
// then the oldest; past as many keys that succeeded, they are forgotten at once.

export class FailureWindows {
  private readonly windows = new Map<string, { start: number; keys: Set<string> }>();
  /** Keys that authenticated, until when they are heard whatever their address. */
  private readonly succeeded = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxTracked = 100_000,
  ) {}

  /** How long `client` must wait before it is heard again with `key` (0: now). */
  retryAfterMs(client: string, key: string, now = Date.now()): number {
    if ((this.succeeded.get(key) ?? 0) > now) return 0;
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

  /** Counts a successful authentication with `key`: it is heard for a window, whatever its address. */
  succeed(key: string, now = Date.now()): void {
    if (this.succeeded.size >= this.maxTracked) this.succeeded.clear();
    this.succeeded.set(key, now + this.windowMs);
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
