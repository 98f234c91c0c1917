// Pictures of the evidence: the region of a page where a value was printed, cropped from the page as it
// renders, and where the value stands in it, so that the report can box it (render.ts draws the box as a
// vector over the picture). Positions come from the reader that read the value (src/qc/fields.ts
// PrintedBox): PDF user space for a text layer, mapped through the render's transform; for OCR, the page
// as rendered (or the image as oriented) scaled to OCR_PAGE_WIDTH points wide.
import sharp, { type Sharp } from 'sharp';
import type { PrintedBox } from '../qc/fields.js';
import type { Evidence, Finding } from '../qc/finding.js';
import { openImage } from '../qc/reading/images.js';
import { OCR_PAGE_WIDTH } from '../qc/reading/page.js';
import { openPdfRenderer } from '../qc/reading/pdf-threads.js';

/**
 * A picture of the region around a value, and the value's box in it (fractions of its width and height, from
 * the top left).
 */
export interface EvidencePicture {
  png: Uint8Array;
  width: number;
  height: number;
  /** Pixels per point of the page: the picture is shown at the size it was printed. */
  scale: number;
  mark: { left: number; top: number; right: number; bottom: number };
}

/** A page as raw pixels (rows top to bottom), and for a PDF page where user space lands on them. */
export interface PageImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  /** As render.ts PagePixels'; absent for an image, which OCR alone reads. */
  transform?: number[];
}

/** A cited file, open: its pages as images (null for a page that cannot be drawn). */
export interface PageSource {
  page(number: number): Promise<PageImage | null>;
  close(): Promise<void>;
}

/** Pages are drawn at this resolution: text of 8 pt stays legible in the report. */
export const PICTURE_DPI = 144;
/** Around the value: this much of the page's width at least (its label usually stands left of it). */
const CONTEXT_WIDTH = 300;
/** Points above and below the value (a line or two of its neighbourhood). */
const CONTEXT_HEIGHT = 26;
/** A value spanning more than this (an address over several lines) is shown from its top. */
const MAX_PICTURE_HEIGHT = 220;
/** Points of white between the value and its box. */
const MARGIN = 3;

/** Files drawn at once. */
const FILES_AT_ONCE = 2;

/** What identifies a picture: the same value cited by several findings is drawn once. */
export function pictureKey(e: Evidence): string | undefined {
  const b = e.box;
  return b ? [e.document, e.page, b.source, b.x0, b.y0, b.x1, b.y1].join('|') : undefined;
}

/** Most pages drawn for one report's pictures (a few seconds of rendering). */
const MAX_PICTURE_PAGES = 60;

export interface PictureLimits {
  /** Epoch ms after which no page is drawn: a report is not held up for its pictures. */
  deadline: number;
}

/**
 * The pictures of the evidence of `findings` that knows where it was printed, by pictureKey. Each page is
 * drawn once for all the values cited on it; a file `open` cannot find or draw gives no pictures, and
 * neither do pages past the deadline or past MAX_PICTURE_PAGES.
 */
export async function evidencePictures(
  findings: readonly Finding[],
  open: (document: string) => Promise<PageSource | undefined>,
  limits: PictureLimits = { deadline: Infinity },
): Promise<Map<string, EvidencePicture>> {
  const wanted = new Map<string, Map<number, Map<string, PrintedBox>>>();
  for (const e of findings.flatMap((f) => f.evidence)) {
    const key = pictureKey(e);
    if (!key || !e.box) continue;
    let pages = wanted.get(e.document);
    if (!pages) wanted.set(e.document, (pages = new Map()));
    let boxes = pages.get(e.page);
    if (!boxes) pages.set(e.page, (boxes = new Map()));
    boxes.set(key, e.box);
  }
  const pictures = new Map<string, EvidencePicture>();
  let drawn = 0;
  const files = [...wanted];
  const drawFiles = async () => {
    for (let next = files.shift(); next; next = files.shift()) {
      const [document, pages] = next;
      if (drawn >= MAX_PICTURE_PAGES || Date.now() >= limits.deadline) return;
      const source = await open(document);
      if (!source) continue;
      try {
        for (const [number, boxes] of [...pages].sort((a, b) => a[0] - b[0])) {
          if (drawn >= MAX_PICTURE_PAGES || Date.now() >= limits.deadline) return;
          drawn++;
          const image = await source.page(number);
          if (!image) continue;
          // Cut side by side (sharp works on libuv's pool), stored in the page's order. A picture that
          // cannot be cut is left out: the value is still listed in words, and the report goes out.
          const cuts = await Promise.all(
            [...boxes].map(async ([key, box]) => [key, await cut(image, box).catch(() => undefined)] as const),
          );
          for (const [key, picture] of cuts) if (picture) pictures.set(key, picture);
        }
      } finally {
        await source.close();
      }
    }
  };
  // Files side by side, as many as pdf.js has threads by default: one draws while the other is cut.
  await Promise.all(Array.from({ length: FILES_AT_ONCE }, drawFiles));
  return pictures;
}

/** The region around `box` on a page's pixels, or nothing when the box lies off the page. */
async function cut(page: PageImage, box: PrintedBox): Promise<EvidencePicture | undefined> {
  // OCR read a turned page upright: its positions are on the page so turned, and so is the picture.
  const image = box.source === 'ocr' && box.quarterTurns ? await upright(page, box.quarterTurns) : page;
  const { left: bx0, top: by0, right: bx1, bottom: by1, scale } = inPixels(image, box);
  const clampX = (x: number) => Math.min(image.width, Math.max(0, x));
  const clampY = (y: number) => Math.min(image.height, Math.max(0, y));
  const mark = {
    left: clampX(bx0 - MARGIN * scale),
    top: clampY(by0 - MARGIN * scale),
    right: clampX(bx1 + MARGIN * scale),
    bottom: clampY(by1 + MARGIN * scale),
  };
  if (mark.right - mark.left < 2 || mark.bottom - mark.top < 2) return undefined;
  // At least CONTEXT_WIDTH wide, the value two thirds of the way across: labels stand left of values.
  const width = Math.round(
    Math.min(image.width, Math.max(mark.right - mark.left + 2 * MARGIN * scale, CONTEXT_WIDTH * scale)),
  );
  const spare = width - (mark.right - mark.left);
  const left = Math.round(Math.min(image.width - width, Math.max(0, mark.left - spare * 0.65)));
  const top = Math.round(clampY(mark.top - CONTEXT_HEIGHT * scale));
  const height = Math.round(
    Math.min(clampY(mark.bottom + CONTEXT_HEIGHT * scale), top + MAX_PICTURE_HEIGHT * scale) - top,
  );
  if (width < 1 || height < 1) return undefined;
  const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left, top, width, height })
    .removeAlpha()
    .greyscale()
    // Sixteen greys keep type legible and a picture of a form to a few kilobytes; the PDF takes the
    // PNG's compressed pixels as they are (render.ts).
    .png({ palette: true, colours: 16, compressionLevel: 9, effort: 1, dither: 0 })
    .toBuffer();
  const fraction = (v: number, from: number, span: number) => Math.min(1, Math.max(0, (v - from) / span));
  return {
    png: new Uint8Array(png),
    width,
    height,
    scale,
    mark: {
      left: fraction(mark.left, left, width),
      top: fraction(mark.top, top, height),
      right: fraction(mark.right, left, width),
      bottom: fraction(Math.min(mark.bottom, top + height), top, height),
    },
  };
}

/** The page turned clockwise by `turns` quarter turns, as OCR turned it to read it. */
function upright(page: PageImage, turns: 1 | 2 | 3): Promise<PageImage> {
  return pageImageOf(
    sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } }).rotate(turns * 90),
  );
}

/** The pixels `image` gives, as a page image. */
async function pageImageOf(image: Sharp): Promise<PageImage> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3 | 4,
  };
}

/** `box` in the image's pixels (origin top left), and the image's pixels per point. */
function inPixels(size: PageImage, box: PrintedBox) {
  if (box.source === 'text_layer' && size.transform) {
    const [a, b, c, d, e, f] = size.transform as [number, number, number, number, number, number];
    const corners = [
      [box.x0, box.y0],
      [box.x1, box.y1],
      [box.x0, box.y1],
      [box.x1, box.y0],
    ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    return {
      left: Math.min(...xs),
      top: Math.min(...ys),
      right: Math.max(...xs),
      bottom: Math.max(...ys),
      scale: Math.hypot(a, b),
    };
  }
  // OCR's points: the image scaled to OCR_PAGE_WIDTH wide, y up from its foot, turned about its centre
  // by `turned` when OCR straightened it first; turned back here.
  const scale = size.width / OCR_PAGE_WIDTH;
  const [cx, cy] = [size.width / 2, size.height / 2];
  const [cos, sin] = [Math.cos(-(box.turned ?? 0)), Math.sin(-(box.turned ?? 0))];
  const corners = [
    [box.x0, box.y0],
    [box.x1, box.y1],
    [box.x0, box.y1],
    [box.x1, box.y0],
  ].map(([x, y]) => {
    const [dx, dy] = [x! * scale - cx, size.height - y! * scale - cy];
    return [cx + dx * cos - dy * sin, cy + dx * sin + dy * cos] as const;
  });
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys), scale };
}

/**
 * A stored file as a PageSource: a PDF's pages drawn by the pdf.js threads (bounded as reading is), an
 * image's frames decoded exactly as OCR decoded them (images.ts: oriented, evened out, every type OCR
 * reads), so OCR's positions land where they were read. Nothing for a file that cannot be opened.
 */
export async function openPageSource(bytes: Uint8Array, mime: string): Promise<PageSource | undefined> {
  if (mime === 'application/pdf') {
    const pdf = await openPdfRenderer(bytes);
    if ('refused' in pdf) return undefined;
    return {
      async page(n) {
        const pixels = n >= 1 && n <= pdf.numPages ? await pdf.pixels(n, PICTURE_DPI) : null;
        return pixels && { ...pixels, channels: 4 };
      },
      close: () => pdf.close(),
    };
  }
  const image = await openImage(bytes, mime).catch(() => undefined);
  if (!image) return undefined;
  const width = Math.round((OCR_PAGE_WIDTH * PICTURE_DPI) / 72);
  return {
    async page(n) {
      if (n < 1 || n > image.count) return null;
      try {
        const frame = await image.frame(n - 1);
        return await pageImageOf(
          sharp(frame.grey, { raw: { width: frame.width, height: frame.height, channels: 1 } }).resize({ width }),
        );
      } catch {
        return null;
      }
    },
    close: () => Promise.resolve(),
  };
}
