// Reads one uploaded file into positioned page text, whatever it is: a PDF's text layer, OCR for its
// pages without one, OCR for images. Never throws for bad input: an unreadable file is reported.
import { ocrImage, ocrPdfPages } from './ocr.js';
import { illegiblePage, nonSpaceChars, type PageText } from './page.js';
import type { FormField } from './pdf-text.js';
import { readPdf } from './pdf-threads.js';

export type FileReading =
  | { readable: true; pages: PageText[]; formFields: FormField[] }
  | { readable: false; reason: string };

/**
 * OCR as the reader needs it (reading/ocr.ts); tests of pure logic may leave it out. Pages not begun by
 * `deadline` (epoch ms), or once `signal` is aborted, come back illegible.
 */
export interface Ocr {
  image(bytes: Uint8Array, mime: string, deadline: number, signal?: AbortSignal): Promise<FileReading>;
  pdfPages(bytes: Uint8Array, pageNumbers: number[], deadline: number, signal?: AbortSignal): Promise<PageText[]>;
}

/** OCR by the shared pool of offline tesseract workers (reading/ocr.ts). */
export const tesseractOcr: Ocr = {
  async image(bytes, mime, deadline, signal) {
    const read = await ocrImage(bytes, mime, deadline, signal);
    return read.readable ? { readable: true, pages: read.pages, formFields: [] } : read;
  },
  async pdfPages(bytes, pageNumbers, deadline, signal) {
    const read = await ocrPdfPages(bytes, pageNumbers, deadline, signal ? { signal } : {});
    // pdf.js parsed the file a moment ago; should rendering fail as a whole, the pages count as illegible.
    return read.readable ? read.pages : pageNumbers.map(illegiblePage);
  },
};

/** `ocr` with the seconds each of its calls takes told to `onSeconds` (the worker's OCR-seconds metric). */
export function timedOcr(ocr: Ocr, onSeconds: (seconds: number) => void): Ocr {
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      onSeconds((performance.now() - started) / 1000);
    }
  };
  return {
    image: (bytes, mime, deadline, signal) => timed(() => ocr.image(bytes, mime, deadline, signal)),
    pdfPages: (bytes, pageNumbers, deadline, signal) => timed(() => ocr.pdfPages(bytes, pageNumbers, deadline, signal)),
  };
}

/**
 * Reads one file. Past `deadline` (epoch ms) no more pages are begun: those left are illegible (the
 * analysis has a time budget, activities/analysis.ts); so too once `signal` is aborted (the analysis is
 * no longer wanted, and its caller discards the reading).
 */
export async function readFile(
  bytes: Uint8Array,
  mime: string,
  ocr?: Ocr,
  deadline = Infinity,
  signal?: AbortSignal,
): Promise<FileReading> {
  if (mime.startsWith('image/'))
    return ocr ? ocr.image(bytes, mime, deadline, signal) : { readable: false, reason: 'images need OCR' };
  if (mime !== 'application/pdf') return { readable: false, reason: `unsupported type ${mime}` };
  const pdf = await readPdf(bytes, deadline, signal);
  if (!pdf.readable) return pdf;
  if (pdf.ocrPages.length === 0 || !ocr) return { readable: true, pages: pdf.pages, formFields: pdf.formFields };
  const recognised = new Map((await ocr.pdfPages(bytes, pdf.ocrPages, deadline, signal)).map((p) => [p.number, p]));
  // A short text layer may be all the page holds (a one-line cover): OCR replaces it only when it reads
  // more, or when there is no text layer at all, so that a page OCR cannot read keeps its low confidence
  // (DOC-006) instead of passing for an empty text page.
  const better = (page: PageText) => {
    const read = recognised.get(page.number);
    return read && (nonSpaceChars(page.text) === 0 || nonSpaceChars(read.text) > nonSpaceChars(page.text))
      ? read
      : page;
  };
  return { readable: true, pages: pdf.pages.map(better), formFields: pdf.formFields };
}
