// Opens PDFs with pdf.js for text and rendering. unpdf's bundled pdf.js build needs Node 22
// (ArrayBuffer.prototype.transferToFixedLength): on Node 20 it drops a page's drawing operators without
// an error, so pages render blank. The legacy build of the same pdf.js release (pdfjs-dist 5.6) carries
// the polyfills; it also ships the standard-font data and CMaps that non-embedded fonts and CJK encodings
// need, read from node_modules (never fetched).
import { createRequire } from 'node:module';
import path from 'node:path';
import { definePDFJSModule, getDocumentProxy } from 'unpdf';
import { MAX_IMAGE_PIXELS } from './page.js';

/**
 * Builtins that the legacy build's core-js replaces although Node has them: `Array.prototype.push` (for
 * a corner case of arrays whose length cannot be written) and `JSON.parse` and `JSON.stringify` (for
 * JSON source-text access, which pdf.js never uses). Its push, in JavaScript, runs for every push of
 * whatever code shares the realm: about a tenth of the CPU of reading a form page went to it. They are
 * put back once pdf.js is loaded, so they are taken here, before it is: pdf.js is imported dynamically
 * below, which also keeps a bundle of this module (a thread's entry, thread-entry.ts) from loading it
 * first.
 */
const nodeBuiltins = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// The worker side of pdf.js runs in this thread ("fake worker", found at globalThis.pdfjsWorker): loaded
// now, its own copy of core-js replaces the builtins at once rather than at the first document.
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
Object.defineProperty(Array.prototype, 'push', { value: nodeBuiltins.push, writable: true, configurable: true });
JSON.parse = nodeBuiltins.parse;
JSON.stringify = nodeBuiltins.stringify;

/** pdf.js's operator codes, for telling what a page draws (pdf-text.ts). */
export const OPS = pdfjs.OPS;

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type Options = NonNullable<Parameters<typeof getDocumentProxy>[1]>;

const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
let defined: Promise<void> | undefined;

/** A pdf.js document over a copy of `bytes` (pdf.js detaches the buffer it is given); the caller destroys it. */
export async function openPdf(bytes: Uint8Array, options: Options = {}): Promise<PdfDocument> {
  await (defined ??= definePDFJSModule(async () => pdfjs));
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
