// How printed forms pair labels with values: the value right of a label (or after its colon) or under it,
// phrase by phrase, the same for text runs and OCR words; and the Located value with its page.
import type { Located, PrintedBox } from '../fields.js';
import { lineSpan, sliceOf, type Line, type PageLayout } from '../reading/layout.js';
import type { TextItem } from '../reading/page.js';
import type { FormField } from '../reading/pdf-text.js';
import { parseAmount } from './values.js';

type Found = { item: TextItem; page: PageLayout };

/**
 * The first label matching `label` (pages in order, top to bottom) for which `pick` finds a value. With
 * `anyPrefix` a label may be the start of any phrase (layout.ts `labels`), for a `pick` that looks where
 * no caption's own words stand (a figure in a value column below).
 */
export function findValue(
  pages: readonly PageLayout[],
  label: RegExp,
  pick: (page: PageLayout, label: TextItem) => TextItem | undefined,
  o: { anyPrefix?: boolean } = {},
): Found | undefined {
  for (const page of pages) {
    for (const l of page.labels(label, o)) {
      const item = pick(page, l);
      if (item) return { item, page };
    }
  }
  return undefined;
}

/**
 * The first label matching `label` (pages in order, top to bottom) with a value `parse` accepts among the
 * runs `pick` offers for it: a caption standing where a value should (a blank form) is passed over.
 */
export function parsedValue<T>(
  pages: readonly PageLayout[],
  label: RegExp,
  pick: (page: PageLayout, label: TextItem) => TextItem | readonly TextItem[] | undefined,
  parse: (text: string) => T | undefined,
): Located<T> | undefined {
  const parsable = (page: PageLayout, l: TextItem) => {
    const picked = pick(page, l);
    const items = picked === undefined ? [] : Array.isArray(picked) ? picked : [picked as TextItem];
    return items.find((item) => parse(item.text.trim()) !== undefined);
  };
  return located(findValue(pages, label, parsable, { anyPrefix: true }), parse);
}

export function located<T>(found: Found | undefined, parse: (text: string) => T | undefined): Located<T> | undefined {
  if (!found) return undefined;
  const value = parse(found.item.text.trim());
  return value === undefined ? undefined : placed(value, found.page, found.item);
}

/** The box around both (a value joined from two fields printed on one page), or whichever there is. */
export function unionOf(a: PrintedBox | undefined, b: PrintedBox | undefined): PrintedBox | undefined {
  if (!a || !b || a.source !== b.source) return a ?? b;
  return {
    ...a,
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

/** A value read from `items` of `page`: its page and where on it. */
export function placed<T>(value: T, page: PageLayout, items: TextItem | readonly TextItem[]): Located<T> {
  return { value, page: page.number, box: page.boxOf(items) };
}

const withIndices = new WeakMap<RegExp, RegExp>();
/** `pattern` with the `d` flag, so that a match says where its capture stands. */
function indexed(pattern: RegExp): RegExp {
  let re = withIndices.get(pattern);
  if (!re) withIndices.set(pattern, (re = new RegExp(pattern.source, `${pattern.flags.replace(/[dg]/g, '')}d`)));
  return re;
}

/**
 * Where a match of `pattern` in `text` stands: its capture when it has one (the value), else the whole
 * match (a period "from … to …" is read whole).
 */
export function matchSpan(
  pattern: RegExp,
  text: string,
): { match: RegExpExecArray; start: number; end: number } | undefined {
  const match = indexed(pattern).exec(text);
  if (!match) return undefined;
  const [start, end] = (match.length === 2 ? match.indices?.[1] : undefined) ??
    match.indices?.[0] ?? [match.index, match.index + match[0].length];
  return { match, start, end };
}

/** A value stands within this distance right of its label (a stub right-aligns its figures half a page away). */
const MAX_VALUE_GAP = 320;

export interface Phrase {
  text: string;
  x: number;
  end: number;
  y: number;
  item: TextItem;
}

/** A line's phrases (layout.ts groups words into phrases, for text runs and OCR words alike). */
export function phrasesOf(line: Line): Phrase[] {
  return line.items.map((item) => ({ text: item.text, x: item.x, end: item.x + item.width, y: line.y, item }));
}

/** The tail of a phrase from character `start` (the value after "Pay Date:"). */
function tailOf(item: TextItem, start: number): TextItem {
  return sliceOf(item, start, item.text.length);
}

export interface LabelOptions {
  /** Where the value may stand: right of the label on its line (or after its colon), under it, or either. */
  place?: 'right' | 'below' | 'either';
  /** A value run into the label's own phrase counts only after a colon ("Employer: Acme"), not after a space. */
  colonOnly?: boolean;
  /** How far below the label a value under it may stand (points). */
  maxDy?: number;
}

/**
 * The first value printed by a label (pages in order, top to bottom) that `parse` accepts: the rest of the
 * label's phrase ("Pay Date: 01/16/2026"), the phrase right of it, or the phrase under it. `label` matches
 * the start of a phrase, case-insensitively; OCR words and text runs read alike.
 */
export function labelled<T>(
  pages: readonly PageLayout[],
  label: RegExp,
  parse: (text: string) => T | undefined,
  o: LabelOptions = {},
): Located<T> | undefined {
  const place = o.place ?? 'either';
  const pattern = new RegExp(String.raw`^(?:${label.source})(\s*:\s*|\s+|$)(.*)$`, 'i');
  for (const page of pages) {
    const lines = page.lines.map((line) => ({ line, phrases: phrasesOf(line) }));
    for (const [index, { phrases }] of lines.entries()) {
      for (const [p, phrase] of phrases.entries()) {
        const m = pattern.exec(phrase.text);
        if (!m) continue;
        const candidates: { text: string; item: TextItem }[] = [];
        const rest = m[2]!.trim();
        if (place !== 'below' && rest !== '' && (!o.colonOnly || m[1]!.includes(':')))
          candidates.push({ text: rest, item: tailOf(phrase.item, phrase.text.length - m[2]!.trimStart().length) });
        const right = phrases[p + 1];
        if (place !== 'below' && rest === '' && right && right.x - phrase.end <= MAX_VALUE_GAP) candidates.push(right);
        if (place !== 'right' && rest === '') {
          const under = lines
            .slice(index + 1)
            .filter(({ line }) => phrase.y - line.y <= (o.maxDy ?? 16))
            .flatMap(({ phrases: below }) => below.filter((b) => b.x >= phrase.x - 6 && b.x < phrase.end))[0];
          if (under) candidates.push(under);
        }
        for (const { text, item } of candidates) {
          const value = parse(text.replace(/^:\s*/, ''));
          if (value !== undefined) return placed(value, page, item);
        }
      }
    }
  }
  return undefined;
}

/**
 * The first line (pages in order) matching `pattern`, with its page and where its first capture (else the
 * match) stands.
 */
export function onLine(
  pages: readonly PageLayout[],
  pattern: RegExp,
): { match: RegExpExecArray; page: number; box: PrintedBox } | undefined {
  for (const page of pages) {
    for (const line of page.lines) {
      const found = matchSpan(pattern, line.text);
      if (found)
        return { match: found.match, page: page.number, box: page.boxOf(lineSpan(line, found.start, found.end)) };
    }
  }
  return undefined;
}

/** A printed amount with or without the dollar sign or its spacing: "$ 8,500.00 /month", "3,461.54" → cents. */
export function amount(text: string): number | undefined {
  const m = /^[–—-]?\s*\$?\s*([\d,]+(?:\.\d{2})?)(?:\s*(?:\/\s*(?:month|mo)|per month|a month))?$/i.exec(text.trim());
  if (m) return parseAmount(m[1]!);
  // An OCR misreading ("$7.500.00"), repaired by the money parser where it then checks.
  const bare = text.trim().replace(/\s*(?:\/\s*(?:month|mo)|per month|a month)$/i, '');
  const cents = parseAmount(bare);
  return cents !== undefined && cents >= 0 ? cents : undefined;
}

/** Text a free-text value may be: words, not another label (which ends in a colon) or a bare number. */
export function plainText(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  return t !== '' && /[A-Za-z]/.test(t) && !/:$/.test(t) && t.length <= 120 ? t : undefined;
}

export function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A value a form field holds, on its widget's page and in its widget's rectangle (a widget is PDF user space,
 * as a text layer).
 */
export function fromFormField<T>(field: FormField, value: T, pages: readonly PageLayout[]): Located<T> {
  const page = field.page ?? pages[0]?.number ?? 1;
  if (!field.rect || field.page === null) return { value, page };
  const [x0, y0, x1, y1] = field.rect;
  return {
    value,
    page,
    box: {
      x0: Math.min(x0, x1),
      y0: Math.min(y0, y1),
      x1: Math.max(x0, x1),
      y1: Math.max(y0, y1),
      source: 'text_layer',
    },
  };
}
