// pdf-lib's parse of a PDF that names our marker (marker-scan.ts), in a thread of its own under a budget
// of time and heap. pdf-lib parses synchronously: a crafted file (millions of objects, one array of
// millions of numbers) held the worker's event loop for seconds, and with it every activity of every
// organization in the process. Here the thread is terminated when it overruns, and the PDF is then no
// working document. Such PDFs are rare (our own reports sent back): a parse starts a thread, or takes one
// that answered a parse in the last seconds, at most MAX_PARSE_THREADS at once
// (src/runtime/budgeted-threads.ts).
import { BudgetedThreads, type ThreadBudget } from '../runtime/budgeted-threads.js';
import type { InspectedWorkingDocument } from './marker.js';

export type ParseRequest =
  | { kind: 'inspect'; bytes: Uint8Array; secrets: string[] }
  | { kind: 'fields'; bytes: Uint8Array };

export type ParseReply =
  | { kind: 'inspect'; found: InspectedWorkingDocument | null }
  | { kind: 'fields'; fields: [string, string][] }
  /** pdf-lib threw, the thread overran its budget or died. */
  | { kind: 'failed'; reason: string };

/** Parser threads one process runs at once. */
export const MAX_PARSE_THREADS = 2;

// A report of ours parses in a few MiB; object streams are bounded by the scan. Loading pdf-lib takes a
// fresh thread some 100 ms of the time. An integrator returns several working documents in a row at most.
const threads = new BudgetedThreads<ParseRequest, ParseReply>(
  'marker-thread',
  new URL('./marker-thread.ts', import.meta.url),
  { timeoutMs: 10_000, heapMb: 256, idleMs: 5_000 },
  MAX_PARSE_THREADS,
);

/** Parses running now (for tests). */
export function parseThreadsRunning(): number {
  return threads.runningNow;
}

/** Parser threads started so far, and those waiting for a parse now (for tests). */
export function parseThreadCounts(): { started: number; idle: number } {
  return { started: threads.startedSoFar, idle: threads.idleNow };
}

/** Changes the budget and returns the previous one (tests shorten it). */
export function configureMarkerParsing(changes: Partial<ThreadBudget>): ThreadBudget {
  return threads.configure(changes);
}

/**
 * Runs one parse in a thread, once one of the process's MAX_PARSE_THREADS is free (its time budget
 * starts then); never rejects: a failure of any kind is a `failed` reply.
 */
export async function parseInThread(request: ParseRequest): Promise<ParseReply> {
  const outcome = await threads.run(request);
  return outcome.answered ? outcome.reply : { kind: 'failed', reason: `the parse failed: ${outcome.reason}` };
}
