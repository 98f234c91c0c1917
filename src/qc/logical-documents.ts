// One uploaded file as the logical documents it holds: read (text layer, OCR), split by page into
// documents, each classified and its fields extracted.
import { pageFooter, splitDocuments } from './classify.js';
import { documentsInThread, INLINE_EXTRACTION_PAGES } from './extraction-threads.js';
import { extractFields } from './extract/document.js';
import type { LoanDocument, PageInfo } from './fields.js';
import { readFile, type FileReading, type Ocr } from './reading/document.js';
import { PageLayout } from './reading/layout.js';

/** One file's logical documents with their fields. */
export async function analyseFile(
  filename: string,
  mime: string,
  bytes: Uint8Array,
  ocr?: Ocr,
  deadline = Infinity,
  signal?: AbortSignal,
): Promise<{ documents: LoanDocument[]; unreadable: string | null }> {
  const reading = await readFile(bytes, mime, ocr, deadline, signal);
  // Stopped while it was read: its pages are not worth extracting (EngineOptions.signal, analyse.ts).
  signal?.throwIfAborted();
  if (!reading.readable) return { documents: [], unreadable: reading.reason };
  const documents =
    reading.pages.length > INLINE_EXTRACTION_PAGES
      ? await documentsInThread({ filename, reading })
      : documentsOfReading(filename, reading);
  return { documents, unreadable: null };
}

/** A file's reading split into logical documents, each classified and its fields extracted. */
export function documentsOfReading(
  filename: string,
  reading: Extract<FileReading, { readable: true }>,
): LoanDocument[] {
  const layouts = reading.pages.map((p) => new PageLayout(p.number, p.items, p.source, p.turned, p.quarterTurns));
  const titles = layouts.map((l) => ({
    lines: l.lines.map((line) => line.text),
    headings: l.headings().map((h) => h.text),
  }));
  return splitDocuments(titles).map((run) => {
    const pages = run.pages.map((i) => layouts[i]!);
    const info: PageInfo[] = run.pages.map((i) => {
      const page = reading.pages[i]!;
      const footer = pageFooter(layouts[i]!.lines.map((l) => l.text));
      return { number: page.number, source: page.source, confidence: page.confidence, ...(footer ? { footer } : {}) };
    });
    const formFields = reading.formFields.filter(
      (f) => f.page === null || run.pages.some((i) => reading.pages[i]!.number === f.page),
    );
    return {
      documentClass: run.documentClass,
      filename,
      pages: info,
      fields: extractFields(run.documentClass, pages, formFields),
    } as LoanDocument;
  });
}

/**
 * Joins a form sent as one file per page (page images, a scan per page) into one document: a document
 * continues the one before it, from another file, when both are of one class and its pages go on with
 * the other's own numbering ("Page 2 of 5" after "Page 1 of 5"). Each value keeps the file it was read
 * from; the first file's reading of a field wins, fee lines are all kept.
 */
export function joinPageImages(documents: readonly LoanDocument[]): LoanDocument[] {
  const joined: LoanDocument[] = [];
  for (const doc of documents) {
    const previous = joined.at(-1);
    const last = previous?.pages.at(-1)?.footer;
    const first = doc.pages[0]?.footer;
    const continues =
      previous !== undefined &&
      previous.documentClass === doc.documentClass &&
      doc.documentClass !== 'other' &&
      (previous.pages.at(-1)?.file ?? previous.filename) !== doc.filename &&
      last !== undefined &&
      first !== undefined &&
      first.of === last.of &&
      first.index === last.index + 1;
    if (!continues) {
      joined.push(doc);
      continue;
    }
    const fields: Record<string, unknown> = { ...previous.fields };
    for (const [name, value] of Object.entries(doc.fields as Record<string, unknown>)) {
      if (Array.isArray(value))
        fields[name] = [
          ...((fields[name] as unknown[] | undefined) ?? []),
          ...value.map((v: object) => ({ ...v, file: doc.filename })),
        ];
      else if (fields[name] === undefined && value !== undefined)
        fields[name] = { ...(value as object), file: doc.filename };
    }
    joined[joined.length - 1] = {
      ...previous,
      pages: [...previous.pages, ...doc.pages.map((p) => ({ ...p, file: doc.filename }))],
      fields,
    } as LoanDocument;
  }
  return joined;
}
