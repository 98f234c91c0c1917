// SHA-256 of arriving streams, hashed on a thread of its own: hashing a 200 MiB upload takes some 0.3 s,
// which on the main thread adds to the parsing and the sending of the same bytes; on its own thread it
// overlaps them. One thread serves every stream of the process, each stream's bytes in the order given.
// Bytes are handed over, not copied or shared: their buffer is transferred to the thread and back, so
// that it belongs to one thread at a time and no thread keeps a reference for its collector to find late.
import { Worker } from 'node:worker_threads';

// The thread's code is evaluated, not loaded from a file of its own: it needs nothing but node:crypto, and
// a file would need an entry of its own in the compiled build (scripts/compile.ts) as well as under tsx.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', ({ id, bytes, end }) => {
  if (end === 'drop') return hashes.delete(id);
  let hash = hashes.get(id);
  if (!hash) hashes.set(id, (hash = createHash('sha256')));
  if (bytes) hash.update(bytes);
  if (end === 'digest') {
    hashes.delete(id);
    parentPort.postMessage({ id, digest: hash.digest('hex') });
  } else {
    parentPort.postMessage({ id, bytes }, [bytes.buffer]);
  }
});
`;

interface Reply {
  id: number;
  bytes?: Uint8Array;
  digest?: string;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}

/** The one thread, started at the first hash; it answers each stream's messages in the order sent. */
class HashThread {
  private thread: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending[]>();
  private waiting = 0;
  /** Streams opened before the last failure lost their hash's state with that thread. */
  private lostBelow = 0;

  open(): number {
    return this.nextId++;
  }

  send(id: number, message: { bytes: Uint8Array } | { end: 'digest' }): Promise<Reply> {
    if (id < this.lostBelow)
      return Promise.reject(new Error('the hashing thread stopped while this stream was hashed'));
    const thread = this.started();
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(id) ?? [];
      if (queue.length === 0) this.pending.set(id, queue);
      queue.push({ resolve, reject });
      // Held only while a reply is awaited: an idle thread must not keep the process running.
      if (this.waiting++ === 0) thread.ref();
      thread.postMessage({ id, ...message }, 'bytes' in message ? [message.bytes.buffer as ArrayBuffer] : []);
    });
  }

  /** Forgets stream `id`: its hash is dropped on the thread; replies still due are still delivered. */
  drop(id: number): void {
    this.thread?.postMessage({ id, end: 'drop' });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const thread = new Worker(THREAD_SOURCE, { eval: true, name: 'sha256' });
    thread.unref();
    thread.on('message', (reply: Reply) => {
      const queue = this.pending.get(reply.id);
      const next = queue?.shift();
      if (queue?.length === 0) this.pending.delete(reply.id);
      if (--this.waiting === 0) thread.unref();
      next?.resolve(reply);
    });
    // A thread that failed (out of memory, say) fails what it was asked; the next stream starts a new one.
    const failed = (err: Error) => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.waiting = 0;
      this.lostBelow = this.nextId;
      const queues = [...this.pending.values()];
      this.pending.clear();
      for (const p of queues.flat()) p.reject(err);
    };
    thread.on('error', failed);
    thread.on('exit', (code) => failed(new Error(`the hashing thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }
}

const shared = new HashThread();

/** One stream's SHA-256, hashed on the shared thread. */
export class ThreadedSha256 {
  private readonly id = shared.open();
  private finished = false;

  /**
   * Hashes `bytes` next. Their whole ArrayBuffer goes to the thread (detached here: the caller must own all
   * of it, e.g. from Buffer.allocUnsafeSlow) and comes back, the same memory, as the view resolved.
   */
  async update(bytes: Uint8Array): Promise<Uint8Array> {
    const reply = await shared.send(this.id, { bytes });
    if (!reply.bytes) throw new Error('the hashing thread kept the bytes it was given');
    return reply.bytes;
  }

  /** Hex SHA-256 of everything updated so far (in the order `update` was called); ends the hash. */
  async digest(): Promise<string> {
    this.finished = true;
    const { digest } = await shared.send(this.id, { end: 'digest' });
    if (digest === undefined) throw new Error('the hashing thread answered without a digest');
    return digest;
  }

  /** Abandons the hash (the stream failed): the thread forgets it. */
  dispose(): void {
    if (this.finished) return;
    this.finished = true;
    shared.drop(this.id);
  }
}
