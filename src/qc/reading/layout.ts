// Positioned text as lines of words and phrases, and the lookups form extraction is built on: the value
// printed to the right of a label, or in a value column below it. Forms print label and value as separate
// runs, so reading order alone (what plain text extraction gives) cannot pair them reliably.
//
// A text layer gives runs (a label, a value, a sentence); OCR gives single words. Both are cut into words
// here and the words regrouped into phrases by the gaps between them, so that every lookup sees the same
// thing whichever reader produced the page: "Loan Amount" is one phrase whether it came as one run or as
// two OCR words, and a label and its value printed in one run ("Loan Amount: $150,000.00") are two.
import type { PrintedBox } from '../fields.js';
import type { QuarterTurns } from './orientation.js';
import type { TextItem } from './page.js';

/** Runs whose baselines are this close (points) sit on one line; form values sit up to ~1.5 pt off. */
const LINE_TOLERANCE = 2;
/** OCR words closer than this (points) belong to one phrase; a form's columns stand wider apart. */
export const PHRASE_GAP = 8;
/**
 * Text runs closer than this join into one phrase (a value a generator wrote glyph by glyph). A text layer's
 * runs are otherwise its phrases: a bold label and the sentence set right after it are two.
 */
const RUN_GAP = 1;

/** Where a page's text came from: text runs keep their own phrases, OCR words are grouped by gap. */
export type TextSource = 'text_layer' | 'ocr';
/** Most words a label may span. */
const MAX_LABEL_WORDS = 8;

export interface Line {
  y: number;
  /** The line's words left to right. */
  words: Word[];
  /** The line's phrases left to right: words closer than PHRASE_GAP joined by single spaces. */
  items: TextItem[];
  text: string;
}

/** A word and the piece of text run it came from: words of one piece always stand in one phrase. */
interface Word extends TextItem {
  piece: number;
}
let pieces = 0;

/**
 * A run's words, each placed by its share of the run's characters (a text layer gives no per-glyph
 * positions). A run is cut into pieces where it holds a wide blank (three spaces or more: columns typed
 * into one run); the words of a piece keep together whatever their estimated gaps, as a run in a large
 * font spaces its words wider than a phrase gap.
 */
function wordsOf(item: TextItem): Word[] {
  let piece = ++pieces;
  let end = -1;
  return runWords(item).map((w) => {
    if (end >= 0 && w.start - end >= 3) piece = ++pieces;
    end = w.start + w.text.length;
    return {
      text: w.text,
      x: w.x,
      y: item.y,
      width: w.width,
      height: item.height,
      piece,
      ...(item.ink && { ink: item.ink }),
      ...(item.confidence !== undefined && { confidence: item.confidence }),
    };
  });
}

/** A run's words placed by their share of its characters, with where each starts in the run's text. */
export function runWords(item: TextItem): { text: string; start: number; x: number; width: number }[] {
  const perChar = item.text.length > 0 ? item.width / item.text.length : 0;
  return [...item.text.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    start: m.index,
    x: item.x + m.index * perChar,
    width: m[0].length * perChar,
  }));
}

/** Words of one line (left to right) grouped into phrases. */
function phrasesOfWords(words: readonly Word[], gap: number): TextItem[] {
  const phrases: TextItem[] = [];
  let last: Word | undefined;
  for (const word of words) {
    const phrase = phrases.at(-1);
    if (phrase && last && (word.piece === last.piece || word.x - (phrase.x + phrase.width) <= gap)) {
      phrase.text = `${phrase.text} ${word.text}`;
      phrase.width = Math.max(phrase.width, word.x + word.width - phrase.x);
      phrase.height = Math.max(phrase.height, word.height);
      phrase.ink = inkOf([phrase, word]);
    } else
      phrases.push({
        text: word.text,
        x: word.x,
        y: word.y,
        width: word.width,
        height: word.height,
        ...(word.ink && { ink: word.ink }),
      });
    last = word;
  }
  return phrases;
}

/** The page's lines top to bottom, each line's words and phrases left to right. */
export function linesOf(items: readonly TextItem[], source: TextSource = 'text_layer'): Line[] {
  const gap = source === 'ocr' ? PHRASE_GAP : RUN_GAP;
  const sorted = items.flatMap(wordsOf).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  for (const word of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - word.y) <= LINE_TOLERANCE) line.words.push(word);
    else lines.push({ y: word.y, words: [word], items: [], text: '' });
  }
  for (const line of lines) {
    line.words.sort((a, b) => a.x - b.x);
    line.items = phrasesOfWords(line.words, gap);
    line.text = line.items.map((i) => i.text).join(' ');
  }
  return lines;
}

export function pageTextOf(items: readonly TextItem[], source: TextSource = 'text_layer'): string {
  return linesOf(items, source)
    .map((l) => l.text)
    .join('\n');
}

/**
 * Characters `start` to `end` of a line's text as the pieces of its phrases they cover, each placed by
 * its characters' share of the phrase (a text layer gives no per-glyph positions): where a match in the
 * line's text was printed.
 */
export function lineSpan(line: Line, start: number, end: number): TextItem[] {
  const out: TextItem[] = [];
  let at = 0;
  for (const item of line.items) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + item.text.length);
    if (from < to) out.push(sliceOf(item, from - at, to - at));
    at += item.text.length + 1;
  }
  return out;
}

/**
 * Characters `from` to `to` of an item, placed by their share of its width. A text layer gives no glyph
 * positions, so each character is weighed by its advance in a typical sans face (Helvetica's): digits and
 * capitals are wider than the spaces, stops and narrow letters of a label ("I. Settlement Date: 04/15/2026"
 * puts the date 5 pt further left than an even share does).
 */
export function sliceOf(item: TextItem, from: number, to: number): TextItem {
  const weights = [...item.text].map(advanceOf);
  const total = weights.reduce((s, w) => s + w, 0) || 1;
  const before = weights.slice(0, from).reduce((s, w) => s + w, 0);
  const within = weights.slice(from, to).reduce((s, w) => s + w, 0);
  return {
    ...item,
    text: item.text.slice(from, to),
    x: item.x + (item.width * before) / total,
    width: (item.width * within) / total,
  };
}

const NARROW = new Set([..." .,:;!|'ilIjft/[]()-"]);
const WIDE = new Set([...'mwMW@%']);
/** A character's advance in a typical sans face, in thousandths of an em (Helvetica's, rounded). */
function advanceOf(ch: string): number {
  if (NARROW.has(ch)) return 278;
  if (WIDE.has(ch)) return 889;
  if (/[A-Z]/.test(ch)) return 667;
  if (ch === 'r') return 333;
  return 556;
}

/** A span of words as one item. */
function span(words: readonly TextItem[]): TextItem {
  const first = words[0]!;
  const last = words.at(-1)!;
  return {
    text: words.map((w) => w.text).join(' '),
    x: first.x,
    y: first.y,
    width: last.x + last.width - first.x,
    height: Math.max(...words.map((w) => w.height)),
    ...(first.ink && { ink: inkOf(words) }),
  };
}

/** The extent of OCR words taken together (undefined for text runs, which have none). */
function inkOf(items: readonly TextItem[]): TextItem['ink'] {
  const inked = items.flatMap((i) => (i.ink ? [i.ink] : []));
  if (inked.length === 0) return undefined;
  return { bottom: Math.min(...inked.map((i) => i.bottom)), top: Math.max(...inked.map((i) => i.top)) };
}

/**
 * The longest leading words of `item` (a phrase) whose text matches `value`: a value is often followed in
 * its phrase by what OCR could not tell apart from it ("4.274% Your costs over ...").
 */
export function leading(item: TextItem, value: { test(text: string): boolean }): TextItem | undefined {
  if (value.test(item.text.trim())) return item;
  const words = wordsOf(item);
  // A mark OCR read between a label and its value ("FECHA DE EMISIÓN — 2/15/2013") is neither: the value
  // may start after it. (Tried second, so "– $500.00", a credit, keeps its dash.)
  const starts = words.length > 1 && SEPARATOR.test(words[0]!.text) ? [0, 1] : [0];
  for (const start of starts) {
    for (let k = Math.min(words.length - 1, MAX_LABEL_WORDS); k >= 1; k--) {
      if (start + k > words.length) continue;
      const head = span(words.slice(start, start + k));
      if (value.test(head.text)) return head;
    }
  }
  return undefined;
}

const SEPARATOR = /^[-–—:·•«»"“”'‘’.,~]+$/;

const squashedLabels = new WeakMap<RegExp, RegExp>();
/**
 * The label without its spaces, for OCR that ran words together ("RATELOCK", "LOANID #"); tested against
 * the phrase's text without spaces.
 */
function squashed(label: RegExp): RegExp {
  let re = squashedLabels.get(label);
  if (!re) {
    re = new RegExp(label.source.replace(/\\s[*+?]?|\s+(?![*+?{])/g, ''), label.flags);
    squashedLabels.set(label, re);
  }
  return re;
}

/** A page's words and phrases with the lookups extraction needs. */
export class PageLayout {
  readonly lines: Line[];
  /** Every phrase of the page, top to bottom. */
  readonly items: readonly TextItem[];
  readonly words: readonly Word[];
  readonly gap: number;
  private readonly ocr: boolean;
  /** Labels `labels` found as whole phrases (not the start of a longer one). */
  private readonly wholePhrases = new WeakSet<TextItem>();
  constructor(
    readonly number: number,
    runs: readonly TextItem[],
    readonly source: TextSource = 'text_layer',
    /** PageText's `turned`: OCR read the page turned by this (radians), and its boxes say so. */
    private readonly turned?: number,
    /** PageText's `quarterTurns`: OCR read the page turned upright by these first. */
    private readonly quarterTurns?: Exclude<QuarterTurns, 0>,
  ) {
    this.lines = linesOf(runs, source);
    this.ocr = source === 'ocr';
    this.gap = this.ocr ? PHRASE_GAP : RUN_GAP;
    this.items = this.lines.flatMap((l) => l.items);
    this.words = this.lines.flatMap((l) => l.words);
  }

  get text(): string {
    return this.lines.map((l) => l.text).join('\n');
  }

  /**
   * Characters `start` to `end` of the page's text (its lines joined by one character: `text`, or the
   * same lines joined by spaces as prose) as the pieces of phrases they cover.
   */
  spanOf(start: number, end: number): TextItem[] {
    const items: TextItem[] = [];
    let at = 0;
    for (const line of this.lines) {
      if (at >= end) break;
      items.push(...lineSpan(line, start - at, end - at));
      at += line.text.length + 1;
    }
    return items;
  }

  /**
   * Where `items` (a value's phrase, or the lines a value spans) stand on this page: from below the
   * baseline (descenders) to the top of the tallest glyph (an item's height is its font size or OCR's
   * row height).
   */
  boxOf(items: TextItem | readonly TextItem[]): PrintedBox {
    const all: readonly TextItem[] = Array.isArray(items) ? items : [items as TextItem];
    return {
      x0: Math.min(...all.map((i) => i.x)),
      y0: Math.min(...all.map((i) => i.ink?.bottom ?? i.y - 0.25 * i.height)),
      x1: Math.max(...all.map((i) => i.x + i.width)),
      y1: Math.max(...all.map((i) => i.ink?.top ?? i.y + 0.85 * i.height)),
      source: this.source,
      ...(this.quarterTurns ? { quarterTurns: this.quarterTurns } : {}),
      ...(this.turned ? { turned: this.turned } : {}),
    };
  }

  /**
   * Labels matching `label` (anchored, tested against whole words), top to bottom: a phrase, or the
   * leading words of a phrase whose rest is the value ("Loan Amount: $150,000" read as one phrase).
   */
  labels(label: RegExp, o: { anyPrefix?: boolean } = {}): TextItem[] {
    const found: TextItem[] = [];
    this.lines.forEach((line, index) => {
      for (const phrase of line.items) {
        const words = line.words.filter(
          (w) => w.x >= phrase.x - 0.01 && w.x + w.width <= phrase.x + phrase.width + 0.01,
        );
        for (let k = Math.min(words.length, MAX_LABEL_WORDS); k >= 1; k--) {
          const head = k === words.length ? phrase : span(words.slice(0, k));
          const text = head.text.trim();
          const bare = text.replace(/\s*:$/, '');
          // A label that is only the start of its phrase is one when a colon ends it, a figure or a mark
          // follows ("Loan Amount: $150,000", "Loan Amount $150,000", "Date Issued — 2/15/2013") or, in a
          // text layer, another run begins (a bold caption and its explanation); else it is the start of a
          // longer caption ("Lender Credits" is no "Lender" label).
          // A caller that validates what it reads takes any split (`anyPrefix`): OCR may set a value closer
          // to its label than a phrase gap ("Prestamista Ficus Bank"), and "Credits" is no lender's name.
          const split =
            k < words.length &&
            (o.anyPrefix === true ||
              text.endsWith(':') ||
              /^[:$\d]/.test(words[k]!.text) ||
              SEPARATOR.test(words[k]!.text) ||
              (!this.ocr && words[k]!.piece !== words[k - 1]!.piece));
          if (k < words.length && !split) continue;
          if (label.test(bare) || squashed(label).test(bare.replace(/\s+/g, ''))) {
            // A mark after the label is the label's ("Loan Amount — $150,000" is no credit of -$150,000).
            const marked = k < words.length && SEPARATOR.test(words[k]!.text) ? span(words.slice(0, k + 1)) : head;
            const item = { ...marked, text: bare };
            if (k === words.length) this.wholePhrases.add(item);
            found.push(item);
            break;
          }
        }
      }
      found.push(...this.wrappedLabels(label, index));
    });
    return found;
  }

  /**
   * A label wrapped over two lines ("Pago mensual" over "de intereses y capital"): a phrase and the one
   * starting under it on the next line, read together. Its value may stand beside either line (a text
   * layer centres it between them; OCR puts it on one), so the label is given once on each.
   */
  private wrappedLabels(label: RegExp, index: number): TextItem[] {
    const line = this.lines[index]!;
    const next = this.lines[index + 1];
    if (!next) return [];
    const found: TextItem[] = [];
    for (const top of line.items) {
      const below = next.items.find((i) => Math.abs(i.x - top.x) <= 3);
      if (!below || top.y - below.y > 1.8 * Math.max(top.height, below.height)) continue;
      const text = `${top.text.trim()} ${below.text.trim()}`;
      // The label must run into the second line: one the top line holds alone is found there already.
      const match = label.exec(text);
      if (!match || match.index + match[0].length <= top.text.trim().length + 1) continue;
      const x = Math.min(top.x, below.x);
      const width = Math.max(top.x + top.width, below.x + below.width) - x;
      found.push({ ...top, text, x, width }, { ...below, text, x, width });
    }
    return found;
  }

  /**
   * Phrases set larger than the page's body text (by `ratio` over the median word height): where a title
   * may stand anywhere on the page.
   */
  headings(ratio = 1.3): TextItem[] {
    const heights = this.words.map((w) => w.height).sort((a, b) => a - b);
    const median = heights[Math.floor(heights.length / 2)] ?? 0;
    return median > 0 ? this.items.filter((i) => i.height >= median * ratio) : [];
  }

  label(label: RegExp): TextItem | undefined {
    return this.labels(label)[0];
  }

  /**
   * Phrases on the label's line to its right (before `maxX`), left to right. Words are regrouped from the
   * label's end, so a value that shares the label's phrase is the first phrase here.
   */
  rightOf(label: TextItem, o: { maxX?: number; tolerance?: number } = {}): TextItem[] {
    const tolerance = o.tolerance ?? LINE_TOLERANCE;
    const end = label.x + label.width - 0.5;
    const words = this.words
      .filter((w) => Math.abs(w.y - label.y) <= tolerance && w.x >= end && w.x < (o.maxX ?? Infinity))
      .sort((a, b) => a.x - b.x);
    return phrasesOfWords(words, this.gap);
  }

  /**
   * The phrase set under a label in its box (another layout's "Loan Amount" over "$150,000.00"): on the
   * nearest line below, within two line heights, starting under the label.
   */
  under(label: TextItem): TextItem | undefined {
    // Only a label that is a phrase of its own heads a box; "Lender" read off "Lender Credits" heads nothing.
    if (!this.wholePhrases.has(label)) return undefined;
    const reach = Math.max(14, label.height * 2.2);
    return this.lines
      .filter((l) => l.y < label.y - LINE_TOLERANCE && label.y - l.y <= reach)
      .flatMap((l) => l.items.filter((i) => i.x >= label.x - 6 && i.x < label.x + Math.max(label.width, 12)))[0];
  }

  /** The first phrase right of the label on its line whose leading words match `value`. */
  valueRightOf(
    label: TextItem,
    value: { test(text: string): boolean },
    o: { maxX?: number; tolerance?: number } = {},
  ): TextItem | undefined {
    for (const phrase of this.rightOf(label, o)) {
      const hit = leading(phrase, value);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * The nearest phrase matching `value` in a value column: right of the label's start by at least `minDx`,
   * from the label's line down to `maxDy` points below it. Loan Calculations print the figure at the
   * foot of a label that wraps over several lines.
   */
  valueBelow(
    label: TextItem,
    value: { test(text: string): boolean },
    o: { minDx: number; maxDy: number; maxX?: number },
  ): TextItem | undefined {
    return this.items
      .filter(
        (i) =>
          i.x >= label.x + o.minDx &&
          i.x < (o.maxX ?? Infinity) &&
          i.y <= label.y + LINE_TOLERANCE &&
          i.y >= label.y - o.maxDy,
      )
      .sort((a, b) => b.y - a.y || a.x - b.x)
      .map((i) => leading(i, value))
      .find((i) => i !== undefined);
  }

  /**
   * A value of several lines printed in one column (an address under "Property"): the phrase at `first`
   * and the phrases starting at the same x on the lines right below it, until a gap or a line that starts
   * at the label column.
   */
  columnBelow(first: TextItem, labelX: number, maxLines: number): TextItem[] {
    const out = [first];
    let y = first.y;
    for (const line of this.lines) {
      if (out.length >= maxLines) break;
      if (line.y >= y - 1) continue;
      if (y - line.y > 16) break;
      if (line.items.some((i) => Math.abs(i.x - labelX) < 3)) break;
      // A line of another column set between (a neighbour's value a few points lower) is passed over.
      const next = line.items.find((i) => Math.abs(i.x - first.x) < 3);
      if (!next) continue;
      out.push(next);
      y = next.y;
    }
    return out;
  }
}
