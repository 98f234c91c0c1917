// What reading a document yields, whatever the source: positioned text per page. A PDF's text layer and
// OCR of an image both produce it, so classification and extraction never care where text came from.
import type { QuarterTurns } from './orientation.js';

/** A run of text on a page, in PDF user space: points, origin bottom-left, `y` the baseline. */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /**
   * OCR's own bottom and top of the word (y is its line's baseline, shared by every word of the line so
   * that layout groups them): where a word of a tilted line stands on the page.
   */
  ink?: { bottom: number; top: number };
  /** OCR's confidence in the word, 0–100 (a text layer's words and the box finder's marks have none). */
  confidence?: number;
}

export interface PageText {
  /** 1-based page number within the file it came from. */
  number: number;
  items: TextItem[];
  /** The page's lines top to bottom, items left to right joined by spaces (see layout.ts). */
  text: string;
  source: 'text_layer' | 'ocr';
  /** OCR's mean word confidence, 0–100; null for a text layer. DOC-006 reads it. */
  confidence: number | null;
  /**
   * Radians OCR turned the page by to straighten it before reading (ocr.ts rotateAuto), about its centre:
   * the items stand on the page so turned. Absent for a text layer or a straight page.
   */
  turned?: number;
  /**
   * Quarter turns clockwise OCR turned the file's page by to read it upright (orientation.ts), before any
   * `turned`: the items stand on the page so turned. Absent for a text layer or an upright page.
   */
  quarterTurns?: Exclude<QuarterTurns, 0>;
}

/**
 * Largest image decoded, uploaded or inside a PDF: a Letter page at 600 dpi is 34 MP; more than this is
 * a bomb or a poster.
 */
export const MAX_IMAGE_PIXELS = 60_000_000;

/** A page with no usable text layer: fewer characters than this outside whitespace goes to OCR. */
export const MIN_TEXT_LAYER_CHARS = 20;

/** Characters a page's text holds outside whitespace: what MIN_TEXT_LAYER_CHARS counts. */
export function nonSpaceChars(text: string): number {
  return text.replace(/\s/g, '').length;
}

/** OCR resolution a PDF page is rendered at: 300 dpi is where tesseract reads body text best for its cost. */
export const RENDER_DPI = 300;

/**
 * Page width in points OCR output is scaled to (US Letter), so that the layout tolerances, which are
 * in points, hold for scanned pages whatever their resolution.
 */
export const OCR_PAGE_WIDTH = 612;

/** A page no reader could make anything of (OCR read nothing, or reading it overran its budget): DOC-006. */
export function illegiblePage(number: number): PageText {
  return { number, items: [], text: '', source: 'ocr', confidence: 0 };
}
