// Reads a PDF's text layer page by page with positions (pdf.js through unpdf), and its AcroForm field
// values (a URLA often carries its data there). These run inside a pdf.js thread (pdf-thread.ts); the
// main thread's readPdf (pdf-threads.ts) assembles a whole file's reading under a time budget.
import { pageTextOf } from './layout.js';
import { OPS, type PdfDocument } from './pdfjs.js';
import { MIN_TEXT_LAYER_CHARS, nonSpaceChars, type PageText, type TextItem } from './page.js';
import { visibleItems } from './visible-text.js';

export interface FormField {
  name: string;
  value: string | boolean;
  /** 1-based page of the field's widget, when pdf.js knows it. */
  page: number | null;
  /** The widget's rectangle in PDF user space, when pdf.js knows it. */
  rect?: [number, number, number, number];
  /** Read from a scan, where OCR was unsure of a word of it (urla-printed.ts): a value, but a guess. */
  uncertain?: true;
}

export type PdfReading =
  | {
      readable: true;
      pages: PageText[];
      formFields: FormField[];
      /** Pages whose text layer is too thin to read but which draw what OCR could read (see needsOcr). */
      ocrPages: number[];
    }
  | { readable: false; reason: string };

interface PdfJsTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** One page as read from the text layer, and whether it should be OCRed instead. */
export interface PdfPageReading {
  page: PageText;
  ocr: boolean;
}

/**
 * Reads page `n` of an open document: its text runs, and for a page with too thin a text layer whether
 * it draws anything OCR could read. Runs in a pdf.js thread (pdf-threads.ts), which bounds its time.
 */
export async function readPdfPage(pdf: PdfDocument, n: number): Promise<PdfPageReading> {
  const angled = new Set<TextItem>();
  const items = await visibleItems(pdf, n, await pageItems(pdf, n, angled), angled).catch(() =>
    pageItems(pdf, n, new Set()),
  );
  const page: PageText = { number: n, items, text: pageTextOf(items), source: 'text_layer', confidence: null };
  const chars = nonSpaceChars(page.text);
  // A page without any text is a scan (or blank): straight to OCR, without decoding its images twice.
  return { page, ocr: chars === 0 || (chars < MIN_TEXT_LAYER_CHARS && (await needsOcr(pdf, n))) };
}

/**
 * One page's text runs. A page whose content pdf.js cannot interpret yields no text rather than sinking
 * the whole file: it then goes to OCR like a scanned page, and is illegible (DOC-006) if that fails too.
 */
const MAX_PAGE_ITEMS = 5_000;
/** A dense form page holds under 10,000 characters; one run can hold megabytes, all of it copied and laid out. */
const MAX_PAGE_CHARS = 50_000;

async function pageItems(pdf: PdfDocument, n: number, angled: Set<TextItem>): Promise<TextItem[]> {
  try {
    const page = await pdf.getPage(n);
    try {
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      let chars = 0;
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const it = raw as PdfJsTextItem;
        if (it.str.trim() === '') continue;
        const text = it.str.slice(0, MAX_PAGE_CHARS - chars);
        const item = { text, x: it.transform[4] ?? 0, y: it.transform[5] ?? 0, width: it.width, height: it.height };
        items.push(item);
        if ((it.transform[1] ?? 0) !== 0 || (it.transform[2] ?? 0) !== 0) angled.add(item);
        chars += text.length;
        // A form page holds a few hundred runs; past this the page is built to exhaust the layout's
        // pairings (label × value lookups), and what a reader could make of it is in the first runs anyway.
        if (items.length >= MAX_PAGE_ITEMS || chars >= MAX_PAGE_CHARS) break;
      }
      return items;
    } finally {
      page.cleanup();
    }
  } catch {
    return [];
  }
}

/**
 * Numbers of path data (coordinates and segment codes) from which a thin page is worth OCR without any
 * image: a glyph drawn as an outline takes 30–100, so this is a line or two of outlined text (a PDF whose
 * fonts were converted to paths), while a separator page's rules and boxes stay far below it.
 */
const OUTLINED_TEXT_PATH_NUMBERS = 1_000;

/**
 * Whether a page with (almost) no text layer draws something OCR could read: an image (a scan, a
 * photographed stamp) or outlined text. A page of a few words on white (a cover, a test document) costs
 * no render and recognition, which take seconds per page. A page pdf.js cannot interpret is tried too:
 * rendering may still get something out of it, and if not it is illegible (DOC-006).
 */
async function needsOcr(pdf: PdfDocument, n: number): Promise<boolean> {
  try {
    const page = await pdf.getPage(n);
    try {
      const { fnArray, argsArray } = await page.getOperatorList();
      let pathNumbers = 0;
      for (let i = 0; i < fnArray.length; i++) {
        const fn = fnArray[i]!;
        if (IMAGE_OPS.has(fn)) return true;
        if (fn === OPS.constructPath) pathNumbers += pathDataLength(argsArray[i]);
        if (pathNumbers >= OUTLINED_TEXT_PATH_NUMBERS) return true;
      }
      return false;
    } finally {
      page.cleanup();
    }
  } catch {
    return true;
  }
}

const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
  OPS.shadingFill,
]);

/** constructPath's arguments are [paint op, [path data], bounding box]; older layouts count as long paths. */
function pathDataLength(args: unknown): number {
  if (!Array.isArray(args) || !Array.isArray(args[1])) return OUTLINED_TEXT_PATH_NUMBERS;
  let n = 0;
  for (const data of args[1] as unknown[])
    n += ArrayBuffer.isView(data) || Array.isArray(data) ? (data as ArrayLike<number>).length : 0;
  return n;
}

/** The AcroForm's filled values. Form values are a bonus to the text: a broken AcroForm gives none. */
export async function formFieldsOf(pdf: PdfDocument): Promise<FormField[]> {
  const objects = (await pdf.getFieldObjects().catch(() => null)) as Record<
    string,
    { value?: unknown; page?: number; type?: string; rect?: unknown }[]
  > | null;
  if (!objects) return [];
  const fields: FormField[] = [];
  for (const [name, widgets] of Object.entries(objects)) {
    for (const w of widgets) {
      const value = typeof w.value === 'string' || typeof w.value === 'boolean' ? w.value : null;
      if (value === null || value === '' || value === 'Off') continue;
      const rect =
        Array.isArray(w.rect) && w.rect.length === 4 && w.rect.every((n) => typeof n === 'number' && Number.isFinite(n))
          ? (w.rect as [number, number, number, number])
          : undefined;
      fields.push({ name, value, page: typeof w.page === 'number' ? w.page + 1 : null, ...(rect && { rect }) });
      break;
    }
  }
  return fields;
}
