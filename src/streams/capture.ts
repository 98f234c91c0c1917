// A pass-through that also keeps a copy of what flows, up to a bound: past it the copy is dropped and only
// the pass-through remains, so memory stays bounded whatever the stream's size.
import { Transform, type TransformCallback } from 'node:stream';

export class Capture extends Transform {
  private chunks: Buffer[] | null = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.chunks) {
      this.size += chunk.length;
      if (this.size > this.maxBytes) this.chunks = null;
      else this.chunks.push(chunk);
    }
    done(null, chunk);
  }

  /** Everything that passed, or null when it was more than the bound. Call after the stream has finished. */
  captured(): Buffer | null {
    return this.chunks && Buffer.concat(this.chunks);
  }
}
