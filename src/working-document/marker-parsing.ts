// pdf-lib's parse of a PDF that names our marker (marker-scan.ts), in a thread of its own under a budget
// of time and heap. pdf-lib parses synchronously: a crafted file (millions of objects, one array of
// millions of numbers) held the worker's event loop for seconds, and with it every activity of every
// organization in the process. Here the thread is terminated when it overruns, and the PDF is then no
// working document. Such PDFs are rare (our own reports sent back), so each parse starts a thread and
// ends it: nothing is kept between them. The threads of one process are one bounded pool: at most
// MAX_PARSE_THREADS at once, later parses waiting for one, so that many crafted files at once cost the
// process that many heaps at most.
import { Worker } from 'node:worker_threads';
import { Semaphore } from 'async-mutex';
import { threadEntry } from '../runtime/thread-entry.js';
import type { InspectedWorkingDocument } from './marker.js';

export type ParseRequest =
  | { kind: 'inspect'; bytes: Uint8Array; secrets: string[] }
  | { kind: 'fields'; bytes: Uint8Array };

export type ParseReply =
  | { kind: 'inspect'; found: InspectedWorkingDocument | null }
  | { kind: 'fields'; fields: [string, string][] }
  /** pdf-lib threw, the thread overran its budget or died. */
  | { kind: 'failed'; reason: string };

export interface MarkerParseBudget {
  /** From the thread's start (loading pdf-lib takes some 100 ms) to its answer. */
  timeoutMs: number;
  /** The thread's heap ceiling. A report of ours parses in a few MiB; object streams are bounded by the scan. */
  heapMb: number;
}

let budget: MarkerParseBudget = { timeoutMs: 10_000, heapMb: 256 };

/** Parser threads one process runs at once. */
export const MAX_PARSE_THREADS = 2;
const threads = new Semaphore(MAX_PARSE_THREADS);
let running = 0;

/** Parser threads running now (for tests). */
export function parseThreadsRunning(): number {
  return running;
}

/** Changes the budget and returns the previous one (tests shorten it). */
export function configureMarkerParsing(changes: Partial<MarkerParseBudget>): MarkerParseBudget {
  const previous = budget;
  budget = { ...budget, ...changes };
  return previous;
}

/**
 * Runs one parse in a fresh thread, once one of the process's MAX_PARSE_THREADS is free (its time budget
 * starts then); never rejects: a failure of any kind is a `failed` reply.
 */
export function parseInThread(request: ParseRequest): Promise<ParseReply> {
  return threads.runExclusive(async () => {
    running++;
    try {
      return await parseInNewThread(request);
    } finally {
      running--;
    }
  });
}

async function parseInNewThread(request: ParseRequest): Promise<ParseReply> {
  const { timeoutMs, heapMb } = budget;
  let thread: Worker;
  try {
    thread = new Worker(await threadEntry('marker-thread', new URL('./marker-thread.ts', import.meta.url)), {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
  } catch (err) {
    return { kind: 'failed', reason: `the parser's thread could not start: ${(err as Error).message}` };
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: ParseReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void thread.terminate();
      resolve(reply);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', reason: `the parse took longer than ${timeoutMs} ms` }),
      timeoutMs,
    );
    thread.once('message', (reply: ParseReply) => finish(reply));
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash.
    thread.once('error', (err) => finish({ kind: 'failed', reason: err.message }));
    thread.once('exit', (code) => finish({ kind: 'failed', reason: `the parser's thread exited with ${code}` }));
    thread.postMessage(request);
  });
}
