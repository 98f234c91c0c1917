// Opens PDFs with pdf.js for text and rendering. unpdf's bundled pdf.js build needs Node 22
// (ArrayBuffer.prototype.transferToFixedLength): on Node 20 it drops a page's drawing operators without
// an error, so pages render blank. The legacy build of the same pdf.js release (pdfjs-dist 5.6) carries
// the polyfills; it also ships the standard-font data and CMaps that non-embedded fonts and CJK encodings
// need, read from node_modules (never fetched).
import { createRequire } from 'node:module';
import path from 'node:path';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { definePDFJSModule, getDocumentProxy } from 'unpdf';
import { MAX_IMAGE_PIXELS } from './page.js';

/** pdf.js's operator codes, for telling what a page draws (pdf-text.ts). */
export { OPS };

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type Options = NonNullable<Parameters<typeof getDocumentProxy>[1]>;

const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
let defined: Promise<void> | undefined;

/** A pdf.js document over a copy of `bytes` (pdf.js detaches the buffer it is given); the caller destroys it. */
export async function openPdf(bytes: Uint8Array, options: Options = {}): Promise<PdfDocument> {
  await (defined ??= definePDFJSModule(() => import('pdfjs-dist/legacy/build/pdf.mjs')));
  return getDocumentProxy(new Uint8Array(bytes), {
    verbosity: 0,
    isEvalSupported: false,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    cMapPacked: true,
    // Decoded images live outside the JS heap, where a pdf.js thread's heap limit does not reach: an
    // image over this is not drawn (a scan that size is a bomb, not a page).
    maxImageSize: MAX_IMAGE_PIXELS,
    ...options,
  });
}
