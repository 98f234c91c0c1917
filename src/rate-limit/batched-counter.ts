// Counting requests in batches without losing exactness. Every request must learn its own place in its
// organization's window (the limit refuses the 61st, whichever process it reaches), and the count lives in
// one row shared by every process, so each request cost a round trip and a turn on that row. Here the
// requests of one organization and window that arrive while its previous bump is under way wait for the
// next one, which adds them all at once; the bump returns the new total T, and the n requests of the batch
// take the places T−n+1 … T in the order they arrived. Each request still gets a place no other request of
// any process has, so the count is as exact as one bump per request, at one bump per batch.

/** Adds `n` to the count of `key` and returns the total after them. */
export type CountBatch<K> = (key: K, n: number) => Promise<number>;

interface Batch {
  waiters: { resolve: (place: number) => void; reject: (err: unknown) => void }[];
}

export class BatchedCounter<K> {
  /** Per key: whether a bump is under way, and the batch waiting for it to end. */
  private readonly lanes = new Map<string, { busy: boolean; next: Batch | undefined }>();

  constructor(
    private readonly bump: CountBatch<K>,
    private readonly id: (key: K) => string,
  ) {}

  /** Counts one request of `key`; resolves to its place in the count (1 for the first). */
  count(key: K): Promise<number> {
    const id = this.id(key);
    let lane = this.lanes.get(id);
    if (!lane) this.lanes.set(id, (lane = { busy: false, next: undefined }));
    const batch = (lane.next ??= { waiters: [] });
    const place = new Promise<number>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    if (!lane.busy) void this.flush(key, id);
    return place;
  }

  private async flush(key: K, id: string): Promise<void> {
    const lane = this.lanes.get(id)!;
    const batch = lane.next;
    if (!batch) {
      // Nothing came while the last bump was under way: the lane is done with.
      this.lanes.delete(id);
      return;
    }
    lane.next = undefined;
    lane.busy = true;
    const n = batch.waiters.length;
    try {
      const total = await this.bump(key, n);
      batch.waiters.forEach((w, i) => {
        w.resolve(total - n + 1 + i);
      });
    } catch (err) {
      for (const w of batch.waiters) w.reject(err);
    } finally {
      lane.busy = false;
      void this.flush(key, id);
    }
  }
}
