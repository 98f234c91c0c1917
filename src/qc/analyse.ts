// The QC engine: reads every document of a review (text layer, OCR), splits files into logical
// documents, classifies and extracts them, and runs the mortgage_v1 rules. Bytes are read one document
// at a time; `progress` is called after each (the activity heartbeats there).
import { DEFAULT_RULE_CONTEXT, type RuleContext } from './catalog.js';
import { PRIMARY_CLASSES, type DocumentClass } from './classify.js';
import type { LoanDocument, LoanFile } from './fields.js';
import type { Finding } from './finding.js';
import { analyseFile, joinPageImages } from './logical-documents.js';
import type { Ocr } from './reading/document.js';
import { ReaderUnavailable } from './reading/unavailable.js';
import { runRules } from './rules/registry.js';
import { errorMessage } from './error-message.js';

export interface DocumentToAnalyse {
  id: string;
  filename: string;
  mime: string;
  objectKey: string;
}

export interface AnalysedFile {
  id: string;
  filename: string;
  /** The classes of the logical documents found in the file, in page order; empty when unreadable. */
  classes: DocumentClass[];
  /** Why the file could not be read at all; null when it was. */
  unreadable: string | null;
  /** Pages read from it (0 when it could not be read). */
  pages: number;
}

export interface Analysis {
  documents: AnalysedFile[];
  loan: LoanFile;
  findings: Finding[];
  primaryPresent: boolean;
  /** True when not one document could be read: the pipeline cannot complete (the review fails). */
  nothingReadable: boolean;
}

export interface EngineOptions {
  ocr?: Ocr;
  context?: RuleContext;
  /**
   * Files read at once. Scanned files spend their time in the OCR pool's workers: reading the next file
   * while one is recognised keeps every worker busy (one-page scans are the common case). Default 1.
   */
  concurrency?: number;
  /**
   * Epoch ms after which no page is begun: the pages left are illegible (DOC-006) and the files not yet
   * begun unreadable (DOC-009), so that the analysis ends within its activity's timeout. Default: none.
   */
  deadline?: number;
  /**
   * Aborted when the analysis is no longer wanted (Temporal cancelled its activity: the review is being
   * deleted, or the attempt timed out): no further file or page is begun, and the analysis rejects with the
   * signal's reason once the pages under way are done, rather than read the rest for nothing.
   */
  signal?: AbortSignal;
}

/** Why a file was not read at all: the analysis's deadline came first. */
export const OUT_OF_TIME = "the review's reading time ran out before this file";

export async function analyseDocuments(
  docs: readonly DocumentToAnalyse[],
  read: (objectKey: string) => Promise<Uint8Array>,
  progress: (done: number) => void = () => {},
  options: EngineOptions = {},
): Promise<Analysis> {
  const found: Awaited<ReturnType<typeof analyseFile>>[] = [];
  const deadline = options.deadline ?? Infinity;
  const { signal } = options;
  let next = 0;
  let failed = false;
  let done = 0;
  // Each lane takes the next file in order; results are kept by index, so the loan file is in upload order.
  const lane = async () => {
    while (next < docs.length && !failed && !signal?.aborted) {
      const index = next++;
      const doc = docs[index]!;
      if (Date.now() >= deadline) {
        found[index] = { documents: [], unreadable: OUT_OF_TIME };
        progress(++done);
        continue;
      }
      const bytes = await read(doc.objectKey);
      // Stopped while it came from storage: not opened at all.
      if (signal?.aborted) break;
      found[index] = await analyseFile(doc.filename, doc.mime, bytes, options.ocr, deadline, signal).catch(
        (err: unknown) => {
          // Storage and OCR-machine failures are the worker's and worth a retry; anything else this file
          // provoked in reading or extraction makes it an unreadable file, a finding rather than a crash.
          // Stopped: the lanes end, and the analysis rejects below once none has a page under way.
          if (err instanceof ReaderUnavailable || signal?.aborted) throw err;
          return { documents: [], unreadable: `could not be analysed (${errorMessage(err)})` };
        },
      );
      progress(++done);
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, docs.length)) }, () =>
    lane().catch((err: unknown) => {
      failed = true;
      throw err;
    }),
  );
  // A failed or stopped lane stops the others taking files, and every lane ends before this returns or
  // rejects: none leaves pages of an analysis that is over in the readers.
  const ended = await Promise.allSettled(lanes);
  signal?.throwIfAborted();
  for (const lane of ended) if (lane.status === 'rejected') throw lane.reason;

  const files: AnalysedFile[] = [];
  const loan: LoanFile = { documents: [], unreadable: [] };
  const logical: LoanDocument[] = [];
  docs.forEach((doc, index) => {
    const { documents, unreadable } = found[index]!;
    const pages = new Set(documents.flatMap((d) => d.pages.map((p) => p.number))).size;
    files.push({
      id: doc.id,
      filename: doc.filename,
      classes: documents.map((d) => d.documentClass),
      unreadable,
      pages,
    });
    if (unreadable !== null) loan.unreadable.push({ filename: doc.filename, reason: unreadable });
    logical.push(...documents);
  });
  loan.documents.push(...joinPageImages(logical));
  return {
    documents: files,
    loan,
    findings: runRules(loan, options.context ?? DEFAULT_RULE_CONTEXT),
    primaryPresent: loan.documents.some((d) => PRIMARY_CLASSES.has(d.documentClass)),
    nothingReadable: files.length > 0 && files.every((f) => f.unreadable !== null),
  };
}
