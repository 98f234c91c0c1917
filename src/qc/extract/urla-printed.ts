// The official URLA as a flattened or printed copy: its values are in the page's text (a flattened PDF's
// text layer, a scan's OCR words) and no longer in fields, but each still stands where the form puts its
// field. The form's own geometry (urla-official-layout.ts, taken from the agencies' blank form) says
// where: the page's captions are matched with the blank's to place the page on the form (a scan is
// shifted, scaled and turned a little), and each word that is no caption of the blank belongs to the field
// whose rectangle holds it. The fields so read are handed to the official form's reader (urla-official.ts),
// which gives every section its meaning whichever way the values arrived.
import type { PageLayout } from '../reading/layout.js';
import type { TextItem } from '../reading/page.js';
import type { FormField } from '../reading/pdf-text.js';
import { OFFICIAL_URLA_LAYOUT } from './urla-official-layout.js';

/** A rectangle in PDF user space: left, bottom, right, top. */
export type Rect = readonly [number, number, number, number];

/** The blank form's geometry: per page its words, and every field's widget. */
export interface OfficialUrlaLayout {
  pages: readonly {
    /** 1-based page of the blank form. */
    number: number;
    /** The blank page's words: text and rectangle. */
    words: readonly (readonly [string, ...Rect])[];
  }[];
  /** Fields by "section.name" ("1b.Base"): the blank's page, the widget's rectangle, a text or a check box. */
  fields: Readonly<Record<string, readonly [page: number, ...Rect, kind: 'text' | 'box']>>;
}

/** A word as an anchor: lower-case letters and digits, at least four of them, one a letter. */
function anchorText(text: string): string | undefined {
  const t = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return t.length >= 4 && /[a-z]/.test(t) ? t : undefined;
}

/** x' = a·x + b·y + c, y' = d·x + e·y + f: the blank page placed on a copy's page. */
type Affine = readonly [number, number, number, number, number, number];

function apply(t: Affine, x: number, y: number): [number, number] {
  return [t[0] * x + t[1] * y + t[2], t[3] * x + t[4] * y + t[5]];
}

/** The least-squares placement of `from` points onto `to` points (at least three, not on one line). */
function leastSquares(pairs: readonly { from: [number, number]; to: [number, number] }[]): Affine | undefined {
  // Normal equations of [x y 1]·[a b c]ᵀ = x' (and the same for y'), solved by Cramer's rule.
  const m = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ] as number[][];
  const rx = [0, 0, 0];
  const ry = [0, 0, 0];
  for (const { from, to } of pairs) {
    const v = [from[0], from[1], 1];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) m[i]![j]! += v[i]! * v[j]!;
      rx[i]! += v[i]! * to[0];
      ry[i]! += v[i]! * to[1];
    }
  }
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const d = det(m);
  if (Math.abs(d) < 1e-6) return undefined;
  const solve = (r: number[]) =>
    [0, 1, 2].map((col) => det(m.map((row, i) => row.map((v, j) => (j === col ? r[i]! : v)))) / d);
  const [a, b, c] = solve(rx) as [number, number, number];
  const [e, f, g] = solve(ry) as [number, number, number];
  return [a, b, c, e, f, g];
}

/** Matched anchors a page must share with a page of the blank to be that page (the blank's have 100+). */
const MIN_ANCHORS = 12;
/** A placed anchor this far (points) from its match is a misreading or a coincidence, not the form's. */
const ANCHOR_TOLERANCE = 6;
/** Slack (points) around a field's rectangle: a scan's words sit a little off where the blank puts them. */
const FIELD_SLACK = 2;

/** A word's middle: its ink where OCR gives it, else between baseline and cap height. */
function middleOf(w: TextItem): [number, number] {
  return [w.x + w.width / 2, w.ink ? (w.ink.bottom + w.ink.top) / 2 : w.y + 0.3 * w.height];
}

/** The placement of the blank's page `blank` on `page`, when `page` is that page of the form. */
function placement(
  blank: OfficialUrlaLayout['pages'][number],
  page: PageLayout,
): { transform: Affine; anchors: number } | undefined {
  const unique = <T>(entries: [string | undefined, T][]) => {
    const seen = new Map<string, T | null>();
    for (const [key, value] of entries) if (key) seen.set(key, seen.has(key) ? null : value);
    return seen;
  };
  const blankWords = unique(blank.words.map((w) => [anchorText(w[0]), w]));
  const pageWords = unique(page.words.map((w) => [anchorText(w.text), w]));
  const pairs: { from: [number, number]; to: [number, number] }[] = [];
  for (const [key, word] of pageWords) {
    const b = blankWords.get(key);
    if (!word || !b) continue;
    pairs.push({ from: [(b[1] + b[3]) / 2, (b[2] + b[4]) / 2], to: middleOf(word) });
  }
  if (pairs.length < MIN_ANCHORS) return undefined;
  // Fitted on all, then again on those the first fit places near their match: a word the blank and the
  // copy share by chance elsewhere on the page does not pull the placement.
  let transform = leastSquares(pairs);
  if (!transform) return undefined;
  const near = (t: Affine) =>
    pairs.filter(({ from, to }) => {
      const [x, y] = apply(t, ...from);
      return Math.hypot(x - to[0], y - to[1]) <= ANCHOR_TOLERANCE;
    });
  for (let round = 0; round < 3; round++) {
    const kept = near(transform);
    if (kept.length < MIN_ANCHORS) return undefined;
    const refit = leastSquares(kept);
    if (!refit) return undefined;
    transform = refit;
  }
  const anchors = near(transform).length;
  return anchors >= MIN_ANCHORS ? { transform, anchors } : undefined;
}

/** The rectangle `r` of the blank placed on the copy: the box around its placed corners. */
function placed(t: Affine, r: Rect): Rect {
  const corners = [apply(t, r[0], r[1]), apply(t, r[2], r[1]), apply(t, r[0], r[3]), apply(t, r[2], r[3])];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function area(r: Rect): number {
  return (r[2] - r[0]) * (r[3] - r[1]);
}

/** The area `a` and `b` share. */
function shared(a: Rect, b: Rect): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

/** A word as compared with the blank's: its letters and digits, lower case (punctuation as it is, if only that). */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '') || text;
}

interface Caption {
  text: string;
  rect: Rect;
}

/** A text layer's word, unless it is the blank's caption where the blank prints it. */
function sameCaption(word: TextItem, captions: readonly Caption[]): TextItem | undefined {
  const rect = rectOf(word);
  const text = comparable(word.text);
  return captions.some((c) => c.text === text && shared(c.rect, rect) > 0) ? undefined : word;
}

/**
 * OCR's confidence below which a word of a filled field is a guess: on the scanned form legible values read
 * 90–96, a misread figure ("5250.00," for "$ 6,250.00") and the noise of a box's edges 0–25.
 */
const MIN_WORD_CONFIDENCE = 50;

/** Slack (points) around a caption on a scan, where OCR places a glyph a little off the blank's. */
const CAPTION_SLACK = 1;

/** Rules a filler's value is typed on, read by OCR as characters around it. */
const RULES = /^[_~|'`"-]+|[_~|'`"-]+$/g;

/**
 * An OCR word without what the blank prints under it: none when it is a caption (or mostly over one), else the word
 * without the characters over a caption (OCR glues a value to the "$" printed before its box: "5__4,200.00"),
 * each character placed by its share of the word's width, and without the rules around it.
 */
function withoutCaptions(word: TextItem, captions: readonly Caption[]): TextItem | undefined {
  // A form's rule or a box's edge read as letters: ink a fraction of the line's height.
  if (word.ink && word.ink.top - word.ink.bottom < 0.3 * word.height) return undefined;
  if (!sameCaption(word, captions)) return undefined;
  const rect = rectOf(word);
  const under = captions
    .map((c) => [c.rect[0] - CAPTION_SLACK, c.rect[1], c.rect[2] + CAPTION_SLACK, c.rect[3]] as const)
    .filter((c) => shared(c, rect) > 0);
  if (under.some((c) => shared(c, rect) > 0.5 * area(rect))) return undefined;
  const perChar = word.width / word.text.length;
  const kept = [...word.text].map((ch, i) => {
    const x = word.x + (i + 0.5) * perChar;
    return under.some((c) => x >= c[0] && x <= c[2]) ? ' ' : ch;
  });
  const text = kept.join('').trim().replace(RULES, '').trim();
  if (text === '') return undefined;
  if (text === word.text) return word;
  const start = kept.join('').indexOf(text);
  // OCR's confidence was in the glued word, caption and all: what is left of it has none of its own.
  const { confidence: _glued, ...rest } = word;
  return { ...rest, text, x: word.x + start * perChar, width: text.length * perChar };
}

function rectOf(w: TextItem): Rect {
  return [w.x, w.ink?.bottom ?? w.y - 0.25 * w.height, w.x + w.width, w.ink?.top ?? w.y + 0.85 * w.height];
}

/**
 * What OCR or the box finder makes of a checked box ("☒", a cross, a tick) or of a filled round option
 * ("@", "®", "●"); an empty box reads "☐", an empty round one "O", "0" or "(0".
 */
const CHECK_MARK = /[☒☑✓✔■√●◉@®✗✘]|^[xXvV]$/u;

/**
 * The official form's fields as a flattened or printed copy holds them, by "section.name" as
 * officialUrlaFields keys them; undefined when no page is a page of the official form.
 */
export function printedOfficialUrlaFields(
  pages: readonly PageLayout[],
  layout: OfficialUrlaLayout = OFFICIAL_URLA_LAYOUT,
): Map<string, FormField> | undefined {
  const fields = new Map<string, FormField>();
  const done = new Set<number>();
  for (const page of pages) {
    // Which page of the blank this one is: the one whose captions it shares most.
    let best: { blank: OfficialUrlaLayout['pages'][number]; transform: Affine; anchors: number } | undefined;
    for (const blank of layout.pages) {
      if (done.has(blank.number)) continue;
      const p = placement(blank, page);
      if (p && (!best || p.anchors > best.anchors)) best = { blank, ...p };
    }
    if (!best) continue;
    // A second copy of a page (a co-borrower's own application) is another person's: the first is read.
    done.add(best.blank.number);
    const { blank, transform } = best;
    const captions = blank.words.map((w) => ({
      text: comparable(w[0]),
      rect: placed(transform, [w[1], w[2], w[3], w[4]]),
    }));
    const onPage = Object.entries(layout.fields)
      .filter(([, f]) => f[0] === blank.number)
      .map(([key, f]) => ({ key, kind: f[5], rect: placed(transform, [f[1], f[2], f[3], f[4]]) }));
    const words = new Map<string, TextItem[]>();
    for (const pageWord of page.words) {
      const word = page.source === 'ocr' ? withoutCaptions(pageWord, captions) : sameCaption(pageWord, captions);
      if (!word) continue;
      const [x, y] = middleOf(word);
      const holder = onPage
        .filter(
          ({ rect: r }) =>
            x >= r[0] - FIELD_SLACK && x <= r[2] + FIELD_SLACK && y >= r[1] - FIELD_SLACK && y <= r[3] + FIELD_SLACK,
        )
        .sort((a, b) => area(a.rect) - area(b.rect))[0];
      if (holder) words.set(holder.key, [...(words.get(holder.key) ?? []), word]);
    }
    for (const { key, kind, rect } of onPage) {
      const held = words.get(key);
      if (!held || fields.has(key)) continue;
      const value =
        kind === 'box'
          ? page.source === 'ocr'
            ? held.some((w) => CHECK_MARK.test(w.text))
            : held.some((w) => w.text.trim() !== '')
          : held
              .sort((a, b) => b.y - a.y || a.x - b.x)
              .map((w) => w.text)
              .join(' ');
      if (value === false || value === '') continue;
      const box = page.boxOf(held);
      const uncertain = kind === 'text' && held.some((w) => (w.confidence ?? 100) < MIN_WORD_CONFIDENCE);
      fields.set(key, {
        name: key,
        value,
        page: page.number,
        rect: kind === 'box' ? [rect[0], rect[1], rect[2], rect[3]] : [box.x0, box.y0, box.x1, box.y1],
        ...(uncertain && { uncertain }),
      });
    }
  }
  return done.size > 0 ? fields : undefined;
}
