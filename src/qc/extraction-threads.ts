// Splitting a long file's reading into documents and extracting their fields, in a thread of its own under
// a budget of time and heap (src/runtime/budgeted-threads.ts). Extraction is synchronous and grows with a
// document's pages: a 5,000-page file held the worker's event loop for some 7 s, and with it every other
// review's reading, heartbeats and activity completions in the process. Files of a few pages (2–5 ms a
// page) are extracted in place; a longer one is sent to a thread, which ends once idle for a few seconds.
import { BudgetedThreads, type ThreadBudget } from '../runtime/budgeted-threads.js';
import type { LoanDocument } from './fields.js';
import type { FileReading } from './reading/document.js';

/** A file of more pages than this is extracted in a thread; fewer block the event loop some 100 ms at most. */
export const INLINE_EXTRACTION_PAGES = 25;

export interface ExtractionRequest {
  filename: string;
  reading: Extract<FileReading, { readable: true }>;
}

export type ExtractionReply = { kind: 'documents'; documents: LoanDocument[] } | { kind: 'failed'; reason: string };

/** Extraction threads one process runs at once, as the analysis's lanes. */
export const MAX_EXTRACTION_THREADS = 2;

// 5,000 text pages take some 7 s; the heap holds the file's reading (at most 20 million characters) and
// what is made of it. An analysis's long files follow one another within seconds.
const threads = new BudgetedThreads<ExtractionRequest, ExtractionReply>(
  'extraction-thread',
  new URL('./extraction-thread.ts', import.meta.url),
  { timeoutMs: 120_000, heapMb: 1024, idleMs: 5_000 },
  MAX_EXTRACTION_THREADS,
);

/** Changes the budget and returns the previous one (tests shorten it). */
export function configureExtraction(changes: Partial<ThreadBudget>): ThreadBudget {
  return threads.configure(changes);
}

/** Files this process has sent to an extraction thread (for tests). */
export function extractionsInThreads(): number {
  return threads.requestsSoFar;
}

/** The file could not be extracted within its budget; the file is then unreadable, a finding. */
export class ExtractionFailed extends Error {
  override name = 'ExtractionFailed';
}

/** The reading's logical documents, extracted in a thread; rejects with ExtractionFailed. */
export async function documentsInThread(request: ExtractionRequest): Promise<LoanDocument[]> {
  const outcome = await threads.run(request);
  const reply: ExtractionReply = outcome.answered ? outcome.reply : { kind: 'failed', reason: outcome.reason };
  if (reply.kind === 'failed') throw new ExtractionFailed(`extraction failed: ${reply.reason}`);
  return reply.documents;
}
