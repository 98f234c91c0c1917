// Reading the head of a stream without losing it: the bytes read are put back in front of the rest.
import { PassThrough, type Readable } from 'node:stream';

/** Reads up to `bytes` from the stream; returns them and a stream that yields the whole content. */
export async function peek(source: Readable, bytes: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const ended = await new Promise<boolean>((resolve, reject) => {
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < bytes && (chunk = source.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const finish = (done: boolean) => {
      cleanup();
      resolve(done);
    };
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
  });
  const all = Buffer.concat(chunks);
  const head = all.subarray(0, Math.min(bytes, all.length));
  const out = new PassThrough();
  out.write(all);
  if (ended) out.end();
  else {
    source.on('error', (err) => out.destroy(err));
    source.pipe(out);
  }
  return { head, stream: out };
}
