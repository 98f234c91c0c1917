// The Note (Uniform Instrument Form 3200 and kin): the terms its prose states ("I promise to pay U.S. $162,000.00")
// and the borrowers' signature lines; prose search and signatures serve the security instrument too.
import type { Located, NoteFields } from '../fields.js';
import type { Line, PageLayout } from '../reading/layout.js';
import type { TextItem } from '../reading/page.js';
import { withoutUndefined } from './disclosure.js';
import { parseDate, parseMoney, parseRate } from './values.js';

/** A page's text as running prose: lines joined by spaces, so that a sentence that wraps still matches. */
export function proseOf(page: PageLayout): string {
  return page.lines
    .map((l) => l.text)
    .join(' ')
    .replace(/\s+/g, ' ');
}

/** The first match of `pattern` in the pages' prose (pages in order), with its page. */
export function inProse(pages: readonly PageLayout[], pattern: RegExp): { match: RegExpExecArray; page: number } | undefined {
  for (const page of pages) {
    const match = pattern.exec(proseOf(page));
    if (match) return { match, page: page.number };
  }
  return undefined;
}

/** The first capture of `pattern` in the prose, parsed; undefined when absent or unparsable. */
export function fromProse<T>(pages: readonly PageLayout[], pattern: RegExp, parse: (text: string) => T | undefined): Located<T> | undefined {
  const found = inProse(pages, pattern);
  const value = found?.match[1] === undefined ? undefined : parse(found.match[1].trim());
  return found && value !== undefined ? { value, page: found.page } : undefined;
}

/** A printed date in prose: "June 1, 2013", "June 1st, 2013", "06/01/2013". */
export const PROSE_DATE = String.raw`(?:[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}/\d{1,2}/\d{2,4})`;
/** A dollar amount in prose, "U.S. $" optional: "U.S. $162,000.00", "$ 761.78". */
export const PROSE_MONEY = String.raw`(?:U\.\s?S\.\s?)?\$\s?([\d,]+(?:\.\d{2})?)`;

export const proseDate = (text: string) => parseDate(text.replace(/(\d)(?:st|nd|rd|th)\b/, '$1').replace(/(\d),?\s+(\d{4})$/, '$1, $2'));
export const proseMoney = (text: string) => parseMoney(`$${text.replace(/\s/g, '')}`);

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30,
};

/** "15", "fifteen", "fifteen (15)" → 15. */
export function proseCount(text: string): number | undefined {
  const digits = /\d+/.exec(text);
  if (digits) return Number(digits[0]);
  return NUMBER_WORDS[text.trim().toLowerCase()];
}
const COUNT = String.raw`(\d{1,3}|[a-z]+(?:\s*\(\d{1,3}\))?)`;

// ---- Signatures ----------------------------------------------------------------------------------------

export interface SignatureLine {
  /** The name typed under the line ("Michael Jones"), when one is. */
  name?: string;
  /** True when something is written on the line, false when it is blank, undefined when no line was found. */
  signed?: boolean;
  page: number;
}

/** "-Borrower", "- Borrower", "Michael Jones - Borrower": the caption under a borrower's signature line. */
const CAPTION = /(?:^|\s)[-–—]\s*Borrower\s*$/i;
const RULE = /_{5,}/;
const SEAL = /\(\s*Seal\s*\)/gi;
/** How far above a caption its signature line may stand (points). */
const LINE_REACH = 30;
/** How far above the signature line a signature written over it may stand. */
const SIGNATURE_REACH = 14;
/** Without a printed rule, how far above the caption a signature's run may stand. */
const RUN_REACH = 20;

/**
 * The borrowers' signature blocks of a Uniform Instrument: a line ("______ (Seal)") with a caption under it
 * naming the signer ("Michael Jones -Borrower"). Something written on the line or just above it ("/s/
 * Michael Jones", an electronic signature's text run) is a signature; a line of underscores alone is not.
 * An electronically signed copy may print no rule at all, only the signature's run over the caption.
 */
export function signatureLines(pages: readonly PageLayout[]): SignatureLine[] {
  const found: SignatureLine[] = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const captions = line.items.filter((i) => CAPTION.test(i.text.trim()));
      for (const caption of captions) {
        const name = captionName(page, line, index, caption);
        found.push(withoutUndefined({ name, signed: signedAbove(page, line, caption), page: page.number }));
      }
    });
  }
  return found;
}

/** The signer's name: before the dash in the caption's run, else the runs left of it in its column, else the line below. */
function captionName(page: PageLayout, line: Line, index: number, caption: TextItem): string | undefined {
  const inRun = caption.text.replace(/\s*[-–—]?\s*Borrower\s*$/i, '').replace(SEAL, '').trim();
  if (isName(inRun)) return inRun;
  const previousCaption = line.items.filter((i) => i !== caption && i.x < caption.x && /Borrower\s*$/i.test(i.text.trim())).at(-1);
  const left = line.items
    .filter((i) => i.x < caption.x && (!previousCaption || i.x > previousCaption.x))
    .map((i) => i.text.replace(SEAL, '').replace(/[-–—]\s*$/, '').trim())
    .filter((t) => t !== '')
    .join(' ');
  if (isName(left)) return left;
  const below = page.lines[index + 1];
  if (below && line.y - below.y < 16) {
    const under = below.items.filter((i) => i.x < caption.x + caption.width && i.x + i.width > (previousCaption ? previousCaption.x + previousCaption.width : 0));
    const text = under.map((i) => i.text.trim()).join(' ');
    if (isName(text)) return text;
  }
  return undefined;
}

function isName(text: string): boolean {
  return /^[A-Za-z][A-Za-z.'’ -]{1,80}$/.test(text) && !/borrower|seal|witness|signature/i.test(text);
}

/** The signature line nearest above the caption in its column, and whether anything is written on it. */
function signedAbove(page: PageLayout, line: Line, caption: TextItem): boolean | undefined {
  // The block runs from the signer's name to the caption at its right end; the rule spans it, "(Seal)" beside.
  const previousCaption = line.items.filter((i) => i !== caption && i.x < caption.x && CAPTION.test(i.text.trim())).at(-1);
  const start = Math.min(caption.x - 60, ...line.items.filter((i) => i.x < caption.x && (!previousCaption || i.x > previousCaption.x)).map((i) => i.x));
  const column = (i: TextItem) => i.x < caption.x + caption.width && i.x + i.width > start - 10;
  const rule = page.items
    .filter((i) => RULE.test(i.text) && i.y > line.y + 1 && i.y - line.y <= LINE_REACH && column(i))
    .sort((a, b) => a.y - b.y || Math.abs(a.x + a.width - caption.x) - Math.abs(b.x + b.width - caption.x))[0];
  if (!rule) return signatureRun(page, line, column);
  const overlaps = (i: TextItem) => i.x < rule.x + rule.width && i.x + i.width > rule.x;
  const written = page.items
    .filter((i) => i.y >= rule.y - 2 && i.y <= rule.y + SIGNATURE_REACH && overlaps(i))
    .map((i) => i.text.replace(/_+/g, ' ').replace(SEAL, ' '))
    .join(' ');
  return /[A-Za-z]/.test(written);
}

/**
 * No rule above the caption: the nearest line above it in the caption's column. A run there other than
 * "(Seal)" is the signature, "(Seal)" alone an unsigned block; prose ("WITNESS THE HAND(S) ...") says nothing.
 */
function signatureRun(page: PageLayout, line: Line, column: (i: TextItem) => boolean): boolean | undefined {
  const above = page.lines.filter((l) => l.y > line.y + 1 && l.y - line.y <= RUN_REACH && l.items.some(column)).at(-1);
  if (!above) return undefined;
  const text = above.items
    .filter(column)
    .map((i) => i.text)
    .join(' ');
  if (/witness|by signing|undersigned/i.test(text)) return undefined;
  if (/[A-Za-z]/.test(text.replace(SEAL, ' '))) return true;
  return /\(\s*Seal\s*\)/i.test(text) ? false : undefined;
}

/** Every signer's name in print order, "A and B"; and signed only when every signature line is. */
export function signaturesOf(pages: readonly PageLayout[]): { borrower?: Located<string>; signed?: Located<boolean> } {
  const lines = signatureLines(pages);
  const names = [...new Set(lines.flatMap((l) => (l.name ? [l.name] : [])))];
  const judged = lines.filter((l) => l.signed !== undefined);
  const unsigned = judged.find((l) => l.signed === false);
  const first = lines.find((l) => l.name);
  return withoutUndefined({
    borrower: first && names.length > 0 ? { value: joinNames(names), page: first.page } : undefined,
    signed: judged.length === 0 ? undefined : { value: unsigned === undefined, page: (unsigned ?? judged[0]!).page },
  });
}

function joinNames(names: string[]): string {
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

// ---- The Note --------------------------------------------------------------------------------------------

export function extractNote(pages: readonly PageLayout[]): NoteFields {
  return withoutUndefined({
    principal: fromProse(pages, new RegExp(String.raw`promise to pay\s+${PROSE_MONEY}`, 'i'), proseMoney),
    interestRate: fromProse(pages, /yearly rate of\s+(\d{1,2}(?:\.\d+)?\s?%)/i, parseRate),
    monthlyPayment: fromProse(pages, new RegExp(String.raw`monthly payments? will be in the amount of\s+${PROSE_MONEY}`, 'i'), proseMoney),
    firstPaymentDate: fromProse(pages, new RegExp(String.raw`beginning on\s+(${PROSE_DATE})`, 'i'), proseDate),
    maturityDate: fromProse(pages, new RegExp(String.raw`If,? on\s+(${PROSE_DATE}),? I still owe amounts under this Note`, 'i'), proseDate),
    property: noteProperty(pages),
    lateChargeGraceDays: fromProse(pages, new RegExp(String.raw`by the end of\s+${COUNT}\s+calendar days after the date it is due`, 'i'), proseCount),
    lateChargePercent: fromProse(pages, /amount of the charge will be\s+(\d{1,2}(?:\.\d+)?\s?%)\s+of my overdue payment/i, parseRate),
    prepaymentPenaltyYears: prepaymentPenaltyYears(pages),
    ...signaturesOf(pages),
  });
}

/** "The Property Address is 456 Somewhere Ave, Anytown, ST 12345." or the line over a "[Property Address]" caption. */
function noteProperty(pages: readonly PageLayout[]): Located<string> | undefined {
  // An address ends with its ZIP code; an abbreviation's period ("Ave.") must not end the sentence early.
  const stated =
    fromProse(pages, /The Property Address is\s+(.+?\b\d{5}(?:-\d{4})?)\b/, cleanAddress) ??
    fromProse(pages, /The Property Address is\s+(.+?)\.(?:\s|$)/, cleanAddress);
  if (stated) return stated;
  for (const page of pages) {
    const index = page.lines.findIndex((l) => /^\[Property Address\]$/i.test(l.text.trim()));
    const above = page.lines[index - 1];
    if (index > 0 && above) return { value: cleanAddress(above.text), page: page.number };
  }
  return undefined;
}

/** An address as one line: whitespace collapsed, no space before commas, no trailing punctuation. */
export function cleanAddress(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\s+,/g, ',').replace(/[\s.,;:]+$/, '').trim();
}

/**
 * The years a prepayment charge applies: a Prepayment Note Addendum's "If within 2 years from the date ...
 * I make a full Prepayment ... I will pay a Prepayment charge"; 0 when the Note lets the borrower prepay
 * "without paying a Prepayment charge".
 */
function prepaymentPenaltyYears(pages: readonly PageLayout[]): Located<number> | undefined {
  const charged = inProse(pages, new RegExp(String.raw`within (?:the first\s+)?${COUNT}\s+years?(?:\(s\))?\b.{0,300}?Prepayment charge`, 'i'));
  const years = charged?.match[1] === undefined ? undefined : proseCount(charged.match[1]);
  if (charged && years !== undefined) return { value: years, page: charged.page };
  const free = inProse(pages, /without paying (?:a|any) Prepayment charge/i);
  return free ? { value: 0, page: free.page } : undefined;
}
