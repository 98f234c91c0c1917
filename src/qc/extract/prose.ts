// Reading the prose of the Uniform Instruments (Note, security instrument) and the appraisal's sentences:
// pages as running text, a pattern's first capture with its page, and the shapes values take in prose.
import type { Located, PrintedBox } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { matchSpan } from './labels.js';
import { parseAmount, parseDate } from './values.js';
/** A page's text as running prose: lines joined by spaces, so that a sentence that wraps still matches. */
export function proseOf(page: PageLayout): string {
  return page.lines
    .map((l) => l.text)
    .join(' ')
    .replace(/\s+/g, ' ');
}

/**
 * The first match of `pattern` in the pages' prose (pages in order), with its page and where its first
 * capture (else the whole match) was printed: the lines it runs over.
 */
export function inProse(
  pages: readonly PageLayout[],
  pattern: RegExp,
): { match: RegExpExecArray; page: number; box: PrintedBox } | undefined {
  for (const page of pages) {
    const found = matchSpan(pattern, proseOf(page));
    if (!found) continue;
    // proseOf joins the lines' texts with one space each (a line's text holds no runs of spaces).
    return { match: found.match, page: page.number, box: page.boxOf(page.spanOf(found.start, found.end)) };
  }
  return undefined;
}

/** The first capture of `pattern` in the prose, parsed; undefined when absent or unparsable. */
export function fromProse<T>(
  pages: readonly PageLayout[],
  pattern: RegExp,
  parse: (text: string) => T | undefined,
): Located<T> | undefined {
  const found = inProse(pages, pattern);
  const value = found?.match[1] === undefined ? undefined : parse(found.match[1].trim());
  return found && value !== undefined ? { value, page: found.page, box: found.box } : undefined;
}

/** A printed date in prose: "June 1, 2013", "June 1st, 2013", "06/01/2013". */
export const PROSE_DATE = /(?:[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\/\d{1,2}\/\d{2,4})/.source;
/** A dollar amount in prose, "U.S. $" optional: "U.S. $162,000.00", "$ 761.78". */
export const PROSE_MONEY = /(?:U\.\s?S\.\s?)?\$\s?([\d,]+(?:\.\d{2})?)/.source;

export const proseDate = (text: string) =>
  parseDate(text.replace(/(\d)(?:st|nd|rd|th)\b/, '$1').replace(/(\d),?\s+(\d{4})$/, '$1, $2'));
export const proseMoney = (text: string) => parseAmount(text.replace(/\s/g, ''));

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
};

/** "15", "fifteen", "fifteen (15)" → 15. */
export function proseCount(text: string): number | undefined {
  const digits = /\d+/.exec(text);
  if (digits) return Number(digits[0]);
  return NUMBER_WORDS[text.trim().toLowerCase()];
}
export const COUNT = /(\d{1,3}|[a-z]+(?:\s*\(\d{1,3}\))?)/.source;

/** An address as one line: whitespace collapsed, no space before commas, no trailing punctuation. */
export function cleanAddress(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+,/g, ',')
    .replace(/[\s.,;:]+$/, '')
    .trim();
}
