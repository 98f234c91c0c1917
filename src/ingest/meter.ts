// A pass-through that hashes (SHA-256) and counts what flows, and stops a stream past a size limit.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class Meter extends Transform {
  private readonly hash = createHash('sha256');
  bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(this.tooLarge());
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** Hex SHA-256 of everything that passed; call after the stream has finished. */
  digest(): string {
    return this.hash.digest('hex');
  }
}
