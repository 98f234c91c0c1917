// Splitting a long file's reading into documents and extracting their fields, in a thread of its own under
// a budget of time and heap. Extraction is synchronous and grows with a document's pages: a 5,000-page
// file held the worker's event loop for some 7 s, and with it every other review's reading, heartbeats
// and activity completions in the process. Files of a few pages (2–5 ms a page) are extracted in place;
// a longer one is sent here, to a fresh thread that ends with its answer, so nothing is kept between
// files. The threads of one process are one bounded pool, as the analysis's lanes are.
import { Worker } from 'node:worker_threads';
import { Semaphore } from 'async-mutex';
import { threadEntry } from '../runtime/thread-entry.js';
import type { LoanDocument } from './fields.js';
import type { FileReading } from './reading/document.js';

/** A file of more pages than this is extracted in a thread; fewer block the event loop some 100 ms at most. */
export const INLINE_EXTRACTION_PAGES = 25;

export interface ExtractionRequest {
  filename: string;
  reading: Extract<FileReading, { readable: true }>;
}

export type ExtractionReply =
  | { kind: 'documents'; documents: LoanDocument[] }
  /** Extraction threw, the thread overran its budget or died. */
  | { kind: 'failed'; reason: string };

export interface ExtractionBudget {
  /** From the thread's start to its answer. 5,000 text pages take some 7 s. */
  timeoutMs: number;
  /** The thread's heap ceiling: the file's reading (at most 20 million characters) and what is made of it. */
  heapMb: number;
}

let budget: ExtractionBudget = { timeoutMs: 120_000, heapMb: 1024 };

/** Extraction threads one process runs at once. */
export const MAX_EXTRACTION_THREADS = 2;
const threads = new Semaphore(MAX_EXTRACTION_THREADS);
let started = 0;

/** Extraction threads this process has started (for tests). */
export function extractionThreadsStarted(): number {
  return started;
}

/** Changes the budget and returns the previous one (tests shorten it). */
export function configureExtraction(changes: Partial<ExtractionBudget>): ExtractionBudget {
  const previous = budget;
  budget = { ...budget, ...changes };
  return previous;
}

/** The file could not be extracted within its budget; the file is then unreadable, a finding. */
export class ExtractionFailed extends Error {
  override name = 'ExtractionFailed';
}

/**
 * The reading's logical documents, extracted in a fresh thread once one of the process's
 * MAX_EXTRACTION_THREADS is free (the time budget starts then); rejects with ExtractionFailed.
 */
export async function documentsInThread(request: ExtractionRequest): Promise<LoanDocument[]> {
  const reply = await threads.runExclusive(() => extractInNewThread(request));
  if (reply.kind === 'failed') throw new ExtractionFailed(`extraction failed: ${reply.reason}`);
  return reply.documents;
}

async function extractInNewThread(request: ExtractionRequest): Promise<ExtractionReply> {
  const { timeoutMs, heapMb } = budget;
  let thread: Worker;
  try {
    const entry = await threadEntry('extraction-thread', new URL('./extraction-thread.ts', import.meta.url));
    thread = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    started++;
  } catch (err) {
    return { kind: 'failed', reason: `the extraction thread could not start: ${(err as Error).message}` };
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: ExtractionReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void thread.terminate();
      resolve(reply);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', reason: `it took longer than ${timeoutMs} ms` }),
      timeoutMs,
    );
    thread.once('message', (reply: ExtractionReply) => finish(reply));
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash.
    thread.once('error', (err) => finish({ kind: 'failed', reason: err.message }));
    thread.once('exit', (code) => finish({ kind: 'failed', reason: `its thread exited with ${code}` }));
    thread.postMessage(request);
  });
}
