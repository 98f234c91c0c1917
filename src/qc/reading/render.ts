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
 * Page `pageNumber` drawn at `dpi` (capped at MAX_RENDER_PIXELS) on white, as raw pixels for cutting
 * pictures out of; the viewport's size made whole pixels upwards, so every point is drawn.
 */
export async function renderPagePixels(pdf: PdfDocument, pageNumber: number, dpi: number): Promise<PagePixels> {
  return withPage(pdf, pageNumber, async (page) => {
    const viewport = page.getViewport({ scale: renderScale(page, dpi) });
    const { data, width, height } = await drawPage(page, viewport);
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width,
      height,
      transform: [...viewport.transform],
    };
  });
}

/** A page drawn for OCR, rows top to bottom: one byte a pixel where every pixel is an opaque grey, else RGBA. */
export interface OcrPixels {
  data: Uint8Array;
  channels: 1 | 4;
  width: number;
  height: number;
}

/**
 * Page `pageNumber` drawn for OCR at `dpi` (capped at MAX_RENDER_PIXELS), as raw pixels: a PNG would be
 * encoded only to be decoded again (a scanned page's PNG costs some 80 ms of CPU to encode and 250 to
 * decode). The viewport's size is rounded down to whole pixels (at least one), as renderPdfPage's PNG has
 * it, so that a page read from its PDF and the same page's PNG read as an image are one bitmap. A page
 * drawn in greys alone (a grey scan) comes as its grey plane (greyPlane).
 */
export async function renderPageForOcr(pdf: PdfDocument, pageNumber: number, dpi: number): Promise<OcrPixels> {
  return withPage(pdf, pageNumber, async (page) => {
    const viewport = page.getViewport({ scale: renderScale(page, dpi) });
    const wholeDown = (size: number) => Math.max(1, Math.floor(size));
    const { data, width, height } = await drawn(
      page,
      viewport,
      Infinity,
      wholeDown,
      (rgba): Omit<OcrPixels, 'width' | 'height'> => {
        const grey = greyPlane(rgba);
        return grey ? { data: grey, channels: 1 } : { data: new Uint8Array(rgba), channels: 4 };
      },
    );
    return { ...data, width, height };
  });
}

/**
 * The red channel of opaque RGBA pixels when every pixel is grey (red, green and blue equal), else
 * undefined. Greying RGBA is sharp's (libvips's sRGB to B_W, through linear light: some 90 ms of CPU a
 * 300-dpi page) and it leaves a grey pixel as it is (a unit test checks every level), so a grey page's
 * plane is the bitmap sharp would make of it, at a fifth of the cost.
 */
export function greyPlane(rgba: Uint8Array): Uint8Array | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const count = rgba.length >>> 2;
  // Words of four bytes: alpha in the top byte, then blue, green, red.
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : rgba.slice();
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, count);
  const grey = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const word = words[i]!;
    // Green equals red and blue equals green, and alpha is 255 (the top byte, sign-extended, is -1).
    if (((word ^ (word << 8)) & 0xffff00) !== 0 || word >> 24 !== -1) return undefined;
    grey[i] = word;
  }
  return grey;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `use` of page `pageNumber`; its decoded images are dropped after (a long scanned PDF would hold them all). */
async function withPage<T>(pdf: PdfDocument, pageNumber: number, use: (page: PdfPage) => Promise<T>): Promise<T> {
  const page = await pdf.getPage(pageNumber);
  try {
    return await use(page);
  } finally {
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
 * whole pixels upwards. A drawing still going after `cancelAfterMs` is cancelled and rejects: pdf.js yields
 * between batches of operators, so a timer can stop a page that draws slowly.
 */
export async function drawPage(
  page: PdfPage,
  viewport: PageViewport,
  cancelAfterMs = Infinity,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  return drawn(page, viewport, cancelAfterMs, Math.ceil, (rgba) => new Uint8ClampedArray(rgba));
}

/**
 * `page` drawn as drawPage draws it, its pixels handed to `take` while the canvas holds them: `take`
 * copies what it keeps, since the canvas's memory is freed after.
 */
async function drawn<T>(
  page: PdfPage,
  viewport: PageViewport,
  cancelAfterMs: number,
  whole: (size: number) => number,
  take: (rgba: Uint8Array) => T,
): Promise<{ data: T; width: number; height: number }> {
  const { createCanvas } = await canvasImport();
  const width = whole(viewport.width);
  const height = whole(viewport.height);
  const canvas = createCanvas(width, height);
  try {
    // pdf.js fills the canvas white before it draws (its beginDrawing), so it is not filled here too.
    const context = canvas.getContext('2d');
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
    // The canvas's own pixels (canvas.data() is a view of them, not a copy). It is opaque (pdf.js filled
    // it white), so its premultiplied pixels are plain RGBA: getImageData would un-premultiply each one,
    // some 90 ms of a 300-dpi page.
    return { data: take(canvas.data()), width, height };
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
    return await withPage(document, pageNumber, async (page) => {
      const png = await renderPageAsImage(document, pageNumber, { canvasImport, scale: renderScale(page, dpi) });
      return new Uint8Array(png);
    });
  } finally {
    if (document !== pdf) await document.destroy();
  }
}
