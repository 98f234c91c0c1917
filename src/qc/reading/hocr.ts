// Native tesseract's hOCR (`tesseract … hocr` with hocr_char_boxes) read into lines of words: the boxes,
// baselines, row heights and confidences the tesseract.js path gets from its blocks. hOCR rather than TSV:
// TSV has neither a line's baseline (the skew and the line's one y come from it) nor the characters' boxes
// (check-boxes.ts cuts the characters OCR read from a box off the word).
import type { OcrWord, PixelBox } from './check-boxes.js';

/** A word as OCR read it, in image pixels (y down); `confidence` 0–100. */
export interface ReadWord extends OcrWord {
  confidence: number;
}

/** One line of a page as tesseract found it, in the pixels of the image it was given. */
export interface HocrLine {
  bbox: PixelBox;
  /** The baseline: `y = bbox.y1 + offset + slope × (x − bbox.x0)`, pixels down (hOCR's `baseline`). */
  baseline: { slope: number; offset: number };
  /** Tesseract's row height (hOCR's `x_size`); 0 when absent. */
  rowHeight: number;
  words: ReadWord[];
}

/** Every class tesseract writes for a line of text: a caption, a heading or a floating text is a line too. */
const LINE_CLASSES = new Set(['ocr_line', 'ocr_caption', 'ocr_header', 'ocr_textfloat']);

/**
 * The lines of one hOCR page, in reading order. Only the spans tesseract writes are understood (an element
 * per tag, `title` properties separated by ";"); words without a box or without text are left out.
 */
export function parseHocr(hocr: string): HocrLine[] {
  const lines: HocrLine[] = [];
  type Open = { kind: 'line' | 'word' | 'char' | 'other' };
  const stack: Open[] = [];
  let line: HocrLine | undefined;
  let word:
    | { bbox: PixelBox; confidence: number; text: string; symbols: { text: string; bbox: PixelBox }[] }
    | undefined;
  let char: { text: string; bbox: PixelBox } | undefined;

  const finishWord = () => {
    if (!word || !line) return;
    const text = word.symbols.length > 0 ? word.symbols.map((s) => s.text).join('') : word.text;
    if (text.trim() !== '') {
      line.words.push({
        text,
        bbox: word.bbox,
        confidence: word.confidence,
        ...(word.symbols.length > 0 ? { symbols: word.symbols } : {}),
      });
    }
    word = undefined;
  };

  const tokens = /<span\b([^>]*)>|<\/span\s*>|<[^>]*>|([^<]+)/g;
  for (const match of hocr.matchAll(tokens)) {
    const [token, attributes, text] = match;
    if (attributes !== undefined) {
      const kind = classOf(attributes);
      const title = titleOf(attributes);
      const bbox = title.get('bbox') ?? title.get('x_bboxes');
      if (LINE_CLASSES.has(kind) && bbox) {
        line = {
          bbox: box(bbox),
          baseline: baselineOf(title.get('baseline')),
          rowHeight: Number(title.get('x_size')?.[0] ?? 0) || 0,
          words: [],
        };
        lines.push(line);
        stack.push({ kind: 'line' });
      } else if (kind === 'ocrx_word' && bbox && line) {
        word = { bbox: box(bbox), confidence: Number(title.get('x_wconf')?.[0] ?? 0) || 0, text: '', symbols: [] };
        stack.push({ kind: 'word' });
      } else if (kind === 'ocrx_cinfo' && bbox && word) {
        char = { text: '', bbox: box(bbox) };
        stack.push({ kind: 'char' });
      } else {
        stack.push({ kind: 'other' });
      }
    } else if (token.startsWith('</span')) {
      const closed = stack.pop();
      if (closed?.kind === 'char' && char && word) {
        if (char.text !== '') word.symbols.push(char);
        char = undefined;
      } else if (closed?.kind === 'word') finishWord();
      else if (closed?.kind === 'line') line = undefined;
    } else if (text !== undefined) {
      const decoded = decodeEntities(text);
      if (char) char.text += decoded;
      else if (word) word.text += decoded.trim();
    }
  }
  return lines.filter((l) => l.words.length > 0);
}

function classOf(attributes: string): string {
  return /\bclass\s*=\s*(['"])(.*?)\1/.exec(attributes)?.[2] ?? '';
}

/** hOCR's `title`: properties separated by ";", each a name and its numbers ("bbox 10 20 30 40"). */
function titleOf(attributes: string): Map<string, string[]> {
  const title = /\btitle\s*=\s*(['"])(.*?)\1/s.exec(attributes)?.[2] ?? '';
  const properties = new Map<string, string[]>();
  for (const part of title.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) properties.set(name, values);
  }
  return properties;
}

function box(values: readonly string[]): PixelBox {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = values.map(Number).map((v) => (Number.isFinite(v) ? v : 0));
  return { x0, y0, x1, y1 };
}

function baselineOf(values: readonly string[] | undefined): HocrLine['baseline'] {
  const slope = Number(values?.[0] ?? 0);
  const offset = Number(values?.[1] ?? 0);
  return { slope: Number.isFinite(slope) ? slope : 0, offset: Number.isFinite(offset) ? offset : 0 };
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Tesseract escapes &, <, >, " and ' (HOcrEscape); numeric references are decoded too. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
