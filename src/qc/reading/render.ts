// Renders a PDF page to a PNG for OCR: pdf.js (through unpdf) drawing on @napi-rs/canvas, whose native
// binary ships inside its npm package, so rendering works offline.
import { createIsomorphicCanvasFactory, renderPageAsImage } from 'unpdf';
import { RENDER_DPI } from './page.js';
import { openPdf, type PdfDocument } from './pdfjs.js';
import { errorMessage } from '../error-message.js';

export type { PdfDocument };

/** A page larger than Letter renders at a lower dpi so its bitmap stays at most this many pixels. */
export const MAX_RENDER_PIXELS = 12_500_000;

const canvasImport = () => import('@napi-rs/canvas');

/** pdf.js cannot parse the file; `message` says why, fit for a finding's summary. */
export class PdfRefused extends Error {
  override name = 'PdfRefused';
}

/**
 * Opens a PDF for rendering; the caller destroys it. Throws PdfRefused for bytes pdf.js cannot parse,
 * and anything else (the canvas module missing) as it is: that is the machine's fault, not the file's.
 */
export async function openPdfForRendering(bytes: Uint8Array): Promise<PdfDocument> {
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
  try {
    return await openPdf(bytes, { CanvasFactory });
  } catch (err) {
    throw new PdfRefused(`PDF cannot be parsed (${errorMessage(err)})`);
  }
}

/** Renders 1-based `pageNumber` at `dpi` (capped at MAX_RENDER_PIXELS) to PNG bytes, white background. */
export async function renderPdfPage(
  pdf: PdfDocument | Uint8Array,
  pageNumber: number,
  dpi = RENDER_DPI,
): Promise<Uint8Array> {
  const document = pdf instanceof Uint8Array ? await openPdfForRendering(pdf) : pdf;
  try {
    const page = await document.getPage(pageNumber);
    // The viewport applies /Rotate and the crop box, so the bitmap is the page as a reader sees it.
    const { width, height } = page.getViewport({ scale: 1 });
    const scale = Math.min(dpi / 72, Math.sqrt(MAX_RENDER_PIXELS / (width * height)));
    try {
      const png = await renderPageAsImage(document, pageNumber, { canvasImport, scale });
      return new Uint8Array(png);
    } finally {
      // Drops the page's decoded images: a long scanned PDF would otherwise hold every page's pixels.
      page.cleanup();
    }
  } finally {
    if (document !== pdf) await document.destroy();
  }
}
