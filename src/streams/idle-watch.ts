// A watch on a transfer that aborts when the other side has sent nothing for a while. Only the other side's
// silence counts: time this process could not look (its event loop held by other work on a busy worker)
// and time it held the bytes back itself (its consumer pushing back) are not that side's fault.
import { Transform } from 'node:stream';

export class IdleWatch {
  private readonly controller = new AbortController();
  private last = performance.now();
  private lastTick = this.last;
  private readonly timer: NodeJS.Timeout;
  /**
   * The transfer's bytes pass through here on their way to their consumer: each chunk is a sign of life,
   * and bytes waiting in it are held back by this process, not by the other side.
   */
  readonly through = new Transform({
    transform: (chunk, _encoding, done) => {
      this.progress();
      done(null, chunk);
    },
  });

  /** `idleMs`: the silence allowed, checked every `tickMs`. */
  constructor(
    readonly idleMs: number,
    private readonly tickMs = Math.min(500, idleMs / 4),
  ) {
    this.timer = setInterval(() => this.check(), this.tickMs);
    this.timer.unref();
  }

  /** Aborted, with an IdleTimeoutError, once the other side has been silent for `idleMs`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The other side sent something (a connection, headers, bytes). */
  progress(): void {
    this.last = performance.now();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const now = performance.now();
    // A tick that came late: the loop was busy for the difference, which is not the other side's silence.
    const late = now - this.lastTick - this.tickMs;
    this.lastTick = now;
    if (late > this.tickMs) this.last += late;
    if (this.through.readableLength > 0 || this.through.writableLength > 0) this.last = now;
    if (now - this.last < this.idleMs) return;
    this.stop();
    this.controller.abort(new IdleTimeoutError(this.idleMs));
  }
}

export class IdleTimeoutError extends Error {
  override name = 'IdleTimeoutError';
  constructor(readonly idleMs: number) {
    super(`nothing arrived for ${idleMs / 1000} s`);
  }
}
