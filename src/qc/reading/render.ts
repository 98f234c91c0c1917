// Renders PDF pages as pixels for OCR and pictures: pdf.js (through unpdf) drawing on @napi-rs/canvas, whose native
// binary ships inside its npm package, so rendering works offline.
import { createIsomorphicCanvasFactory, renderPageAsImage } from 'unpdf';
import { RENDER_DPI } from './page.js';
import { openPdf, type PdfDocument } from './pdfjs.js';
import { errorMessage } from '../error-message.js';

export type { PdfDocument };

/** A page larger than Letter renders at a lower dpi so its bitmap stays at most this many pixels. */
export const MAX_RENDER_PIXELS = 12_500_000;

const canvasImport = () => import('@napi-rs/canvas');

/** A page drawn as pixels, and where PDF user space lands on them. */
export interface PagePixels {
  /** RGBA, rows top to bottom. */
  data: Uint8Array;
  width: number;
  height: number;
  /** [a, b, c, d, e, f]: user-space (x, y) is pixel (a·x + c·y + e, b·x + d·y + f). */
  transform: number[];
}

/**
 * Page `pageNumber` drawn at `dpi` (capped at MAX_RENDER_PIXELS) on white, as raw pixels: for cutting
 * pictures out of, and for OCR, where a PNG would be encoded only to be decoded again (a scanned page's
 * PNG costs some 80 ms of CPU to encode and 250 to decode). `whole` makes the viewport's size whole
 * pixels: up (every point drawn, for pictures) or down (as renderPdfPage's PNG, for OCR).
 */
export async function renderPagePixels(
  pdf: PdfDocument,
  pageNumber: number,
  dpi: number,
  whole: (size: number) => number = Math.ceil,
): Promise<PagePixels> {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: renderScale(page, dpi) });
    const { data, width, height } = await drawPage(page, viewport, Infinity, whole);
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width,
      height,
      transform: [...viewport.transform],
    };
  } finally {
    // Drops the page's decoded images: a long scanned PDF would otherwise hold every page's pixels.
    page.cleanup();
  }
}

type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type PageViewport = ReturnType<PdfPage['getViewport']>;

/** Pixels per point for `dpi`, lowered for a page larger than Letter so its bitmap stays within MAX_RENDER_PIXELS. */
function renderScale(page: PdfPage, dpi: number): number {
  // The viewport applies /Rotate and the crop box, so the bitmap is the page as a reader sees it.
  const { width, height } = page.getViewport({ scale: 1 });
  return Math.min(dpi / 72, Math.sqrt(MAX_RENDER_PIXELS / (width * height)));
}

/**
 * `page` drawn through `viewport` on white, as RGBA pixels (rows top to bottom), the viewport's size made
 * whole by `whole`. A drawing still going after `cancelAfterMs` is cancelled and rejects: pdf.js yields
 * between batches of operators, so a timer can stop a page that draws slowly.
 */
export async function drawPage(
  page: PdfPage,
  viewport: PageViewport,
  cancelAfterMs = Infinity,
  whole: (size: number) => number = Math.ceil,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { createCanvas } = await canvasImport();
  const width = whole(viewport.width);
  const height = whole(viewport.height);
  const canvas = createCanvas(width, height);
  try {
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    // pdf.js types its canvas as the DOM's; @napi-rs/canvas implements the part pdf.js draws with.
    type RenderParameters = Parameters<typeof page.render>[0];
    const task = page.render({
      canvasContext: context as unknown as RenderParameters['canvasContext'],
      viewport,
      canvas: canvas as unknown as RenderParameters['canvas'],
    });
    const timer = Number.isFinite(cancelAfterMs) ? setTimeout(() => task.cancel(), cancelAfterMs) : undefined;
    try {
      await task.promise;
    } finally {
      clearTimeout(timer);
    }
    // The canvas's own pixels, copied before the canvas is shrunk below (which frees them). It is opaque
    // (filled white first), so its premultiplied pixels are plain RGBA: getImageData would un-premultiply
    // each one, some 90 ms of a 300-dpi page.
    return { data: new Uint8ClampedArray(canvas.data()), width, height };
  } finally {
    // The canvas's native surface would wait for the thread's garbage collector; it is given back now.
    canvas.width = 1;
    canvas.height = 1;
  }
}

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
    try {
      const png = await renderPageAsImage(document, pageNumber, { canvasImport, scale: renderScale(page, dpi) });
      return new Uint8Array(png);
    } finally {
      // Drops the page's decoded images: a long scanned PDF would otherwise hold every page's pixels.
      page.cleanup();
    }
  } finally {
    if (document !== pdf) await document.destroy();
  }
}
