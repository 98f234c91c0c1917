// Keeps the words of a text layer that are drawn where a reader sees them. Filled forms often carry text
// that is never seen: a value typed past its field's box and clipped ("Purchase ce", a loan ID with ten
// digits too many), or a blank model form's sample values hidden under its clip paths ("30 years" in an
// empty box). pdf.js's text content says nothing of clipping or paint, so where the page puts ink is
// worked out (from its drawing operators, operator-ink.ts, or where those draw what only pixels can tell,
// by rendering it small) and each word's box is looked at: a word over white paper is not on the page.
import type { PdfDocument } from './pdfjs.js';
import type { TextItem } from './page.js';
import { runWords } from './layout.js';
import { INK_LUMINANCE, operatorInk } from './operator-ink.js';
import { drawPage } from './render.js';

/** Pixels per point of the check's render: 1.5 (108 dpi) shows 6-pt glyphs as several dark pixels. */
const SCALE = 1.5;
/**
 * Share of a word's box that must be ink for the word to be seen. Printed glyphs cover 10–40% of their box;
 * hidden text over a form's rule lines or a shaded box still counts as seen (kept, as before this check).
 */
const MIN_INK = 0.03;
/** A page whose check render takes longer than this keeps all its text (a heavy drawing, not a form). */
const RENDER_MS = 3_000;
/** Pages larger than this many pixels at SCALE are not checked (posters, bombs): their text is kept. */
const MAX_PIXELS = 4_000_000;

type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type PageViewport = ReturnType<PdfPage['getViewport']>;

/** Where a page puts ink at a viewport: one byte a pixel, 1 for ink, rows top to bottom. */
export type InkSource = (page: PdfPage, viewport: PageViewport) => Promise<Uint8Array>;

/** The page's ink from its drawing operators, or from a render where they draw what only pixels can tell. */
export const pageInk: InkSource = async (page, viewport) =>
  (await withDeadline(operatorInk(page, viewport), RENDER_MS)) ?? renderedInk(page, viewport);

/** The page's ink as a render shows it. */
export const renderedInk: InkSource = async (page, viewport) =>
  inkOfPixels((await drawPage(page, viewport, RENDER_MS)).data);

/** `work`, or a rejection once `ms` have passed (pdf.js cannot be asked to stop building an operator list). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('operator list took too long')), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface Word {
  text: string;
  x: number;
  width: number;
}

/**
 * The items of page `n` with every word that is not drawn removed; an item whose words are all hidden
 * is dropped, one with hidden words inside it is split around them. Items set at an angle are kept as
 * they are. A page that cannot be rendered keeps all its items.
 */
export async function visibleItems(
  pdf: PdfDocument,
  n: number,
  items: readonly TextItem[],
  angled: ReadonlySet<TextItem>,
  inkOf: InkSource = pageInk,
): Promise<TextItem[]> {
  if (items.length === 0) return [];
  const page = await pdf.getPage(n);
  try {
    const viewport = page.getViewport({ scale: SCALE });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    if (width * height > MAX_PIXELS || width < 1 || height < 1) return [...items];
    let ink: Uint8Array;
    try {
      ink = await inkOf(page, viewport);
    } catch {
      // A page that draws slowly keeps its text whole: the page's own reading budget is not spent on the check.
      return [...items];
    }
    const inked = (item: TextItem, word: Word): boolean => {
      // The word's box in PDF space (baseline y, a little below for descenders, up to the font's height).
      const [ax, ay] = viewport.convertToViewportPoint(word.x, item.y - item.height * 0.2);
      const [bx, by] = viewport.convertToViewportPoint(word.x + word.width, item.y + item.height * 0.8);
      const x0 = clamp(Math.floor(Math.min(ax!, bx!)), width);
      const x1 = clamp(Math.ceil(Math.max(ax!, bx!)), width);
      const y0 = clamp(Math.floor(Math.min(ay!, by!)), height);
      const y1 = clamp(Math.ceil(Math.max(ay!, by!)), height);
      const area = (x1 - x0) * (y1 - y0);
      // A box off the page or too small to judge is not ours to drop.
      if (area < 4) return x1 > x0 && y1 > y0;
      let inkedPixels = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) inkedPixels += ink![y * width + x]!;
      }
      return inkedPixels / area >= MIN_INK;
    };
    /**
     * How many of a seen word's characters are drawn: a value typed past its box is clipped at the box's
     * right edge, mid-word ("1234567891330172608" shows "123456789").
     */
    const visibleLength = (item: TextItem, word: Word): number => {
      const perChar = word.width / word.text.length;
      let length = word.text.length;
      while (
        length > 1 &&
        /[\p{L}\p{N}]/u.test(word.text[length - 1]!) &&
        !inked(item, { text: word.text[length - 1]!, x: word.x + (length - 1) * perChar, width: perChar })
      )
        length--;
      return length;
    };
    const out: TextItem[] = [];
    for (const item of items) {
      if (angled.has(item)) {
        out.push(item);
        continue;
      }
      const words = runWords(item);
      // Punctuation alone ("–", "@", "-") holds too little ink to judge: it goes with its neighbours.
      const seen = words.map((w) => !/[\p{L}\p{N}]/u.test(w.text) || inked(item, w));
      const lastWord = words.at(-1);
      if (seen.every(Boolean) && (!lastWord || visibleLength(item, lastWord) === lastWord.text.length)) {
        out.push(item);
        continue;
      }
      // Each run of seen words becomes an item of its own.
      let start = -1;
      for (let i = 0; i <= words.length; i++) {
        if (i < words.length && seen[i]) {
          if (start < 0) start = i;
          continue;
        }
        if (start >= 0) {
          const first = words[start]!;
          const last = words[i - 1]!;
          const end = last.start + visibleLength(item, last);
          out.push({
            ...item,
            text: item.text.slice(first.start, end),
            x: first.x,
            width:
              first.x === last.x
                ? (last.width * (end - last.start)) / last.text.length
                : last.x + (last.width * (end - last.start)) / last.text.length - first.x,
          });
          start = -1;
        }
      }
    }
    return out;
  } finally {
    page.cleanup();
  }
}

/** A render's RGBA pixels as ink (1) or paper (0), one byte a pixel. */
function inkOfPixels(pixels: Uint8ClampedArray): Uint8Array {
  const ink = new Uint8Array(pixels.length / 4);
  for (let i = 0, p = 0; i < ink.length; i++, p += 4)
    ink[i] = pixels[p]! * 0.299 + pixels[p + 1]! * 0.587 + pixels[p + 2]! * 0.114 < INK_LUMINANCE ? 1 : 0;
  return ink;
}

function clamp(v: number, max: number): number {
  return Math.max(0, Math.min(max, v));
}
