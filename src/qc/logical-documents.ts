// One uploaded file as the logical documents it holds: read (text layer, OCR), split by page into
// documents, each classified and its fields extracted.
import { pageFooter, splitDocuments } from './classify.js';
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
): Promise<{ documents: LoanDocument[]; unreadable: string | null }> {
  const reading = await readFile(bytes, mime, ocr, deadline);
  if (!reading.readable) return { documents: [], unreadable: reading.reason };
  return { documents: documentsOf(filename, reading), unreadable: null };
}

/** A file's reading split into logical documents, each classified and its fields extracted. */
export function documentsOf(filename: string, reading: Extract<FileReading, { readable: true }>): LoanDocument[] {
  const layouts = reading.pages.map((p) => new PageLayout(p.number, p.items, p.source));
  const titles = layouts.map((l) => ({ lines: l.lines.map((line) => line.text), phrases: l.lines.map((line) => line.items.map((i) => i.text)), headings: l.headings().map((h) => h.text) }));
  return splitDocuments(titles).map((run) => {
    const pages = run.pages.map((i) => layouts[i]!);
    const info: PageInfo[] = run.pages.map((i) => {
      const page = reading.pages[i]!;
      const footer = pageFooter(layouts[i]!.lines.map((l) => l.text));
      return { number: page.number, source: page.source, confidence: page.confidence, ...(footer ? { footer } : {}) };
    });
    const formFields = reading.formFields.filter((f) => f.page === null || run.pages.some((i) => reading.pages[i]!.number === f.page));
    return { documentClass: run.documentClass, filename, pages: info, fields: extractFields(run.documentClass, pages, formFields) } as LoanDocument;
  });
}
