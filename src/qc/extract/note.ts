// The Note (Fannie Mae/Freddie Mac Uniform Instrument, Form 3200 and its kin): the loan terms its prose
// states ("I promise to pay U.S. $162,000.00"), and the borrowers' signature lines.
import type { Located, NoteFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { placed, withoutUndefined } from './labels.js';
import {
  cleanAddress,
  COUNT,
  fromProse,
  inProse,
  PROSE_DATE,
  PROSE_MONEY,
  proseCount,
  proseDate,
  proseMoney,
} from './prose.js';
import { signaturesOf } from './signatures.js';
import { MAX_GRACE_DAYS, MAX_LATE_FEE_PERCENT, parseMortgageRate, parseRate } from './values.js';

/** A term read outside its plausible range is a misreading, as on the disclosures (values.ts). */
function inRange(value: number | undefined, min: number, max: number): number | undefined {
  return value !== undefined && value >= min && value <= max ? value : undefined;
}

export function extractNote(pages: readonly PageLayout[]): NoteFields {
  return withoutUndefined({
    principal: fromProse(pages, new RegExp(String.raw`promise to pay\s+${PROSE_MONEY}`, 'i'), proseMoney),
    interestRate: fromProse(pages, /yearly rate of\s+(\d{1,2}(?:\.\d+)?\s?%)/i, parseMortgageRate),
    monthlyPayment: fromProse(
      pages,
      new RegExp(String.raw`monthly payments? will be in the amount of\s+${PROSE_MONEY}`, 'i'),
      proseMoney,
    ),
    firstPaymentDate: fromProse(pages, new RegExp(String.raw`beginning on\s+(${PROSE_DATE})`, 'i'), proseDate),
    maturityDate: fromProse(
      pages,
      new RegExp(String.raw`If,? on\s+(${PROSE_DATE}),? I still owe amounts under this Note`, 'i'),
      proseDate,
    ),
    property: noteProperty(pages),
    lateChargeGraceDays: fromProse(
      pages,
      new RegExp(String.raw`by the end of\s+${COUNT}\s+calendar days after the date it is due`, 'i'),
      (text) => inRange(proseCount(text), 1, MAX_GRACE_DAYS),
    ),
    lateChargePercent: fromProse(
      pages,
      /amount of the charge will be\s+(\d{1,2}(?:\.\d+)?\s?%)\s+of my overdue payment/i,
      (text) => inRange(parseRate(text), Number.MIN_VALUE, MAX_LATE_FEE_PERCENT / 100),
    ),
    prepaymentPenaltyYears: prepaymentPenaltyYears(pages),
    ...signaturesOf(pages),
  });
}

/** "The Property Address is 456 Somewhere Ave, Anytown, ST 12345." or the line over a "[Property Address]" caption. */
function noteProperty(pages: readonly PageLayout[]): Located<string> | undefined {
  // An address ends with its ZIP code; an abbreviation's period ("Ave.") must not end the sentence early.
  const stated =
    fromProse(pages, /The Property Address is\s+(.{1,200}?\b\d{5}(?:-\d{4})?)\b/, cleanAddress) ??
    fromProse(pages, /The Property Address is\s+(.{1,200}?)\.(?:\s|$)/, cleanAddress);
  if (stated) return stated;
  for (const page of pages) {
    const index = page.lines.findIndex((l) => /^\[Property Address\]$/i.test(l.text.trim()));
    const above = page.lines[index - 1];
    if (index > 0 && above) return placed(cleanAddress(above.text), page, above.items);
  }
  return undefined;
}

/**
 * The years a prepayment charge applies: a Prepayment Note Addendum's "If within 2 years from the date ...
 * I make a full Prepayment ... I will pay a Prepayment charge"; 0 when the Note lets the borrower prepay
 * "without paying a Prepayment charge".
 */
function prepaymentPenaltyYears(pages: readonly PageLayout[]): Located<number> | undefined {
  const charged = inProse(
    pages,
    new RegExp(String.raw`within (?:the first\s+)?${COUNT}\s+years?(?:\(s\))?\b.{0,300}?Prepayment charge`, 'i'),
  );
  const years = charged?.match[1] === undefined ? undefined : proseCount(charged.match[1]);
  if (charged && years !== undefined) return { value: years, page: charged.page, box: charged.box };
  const free = inProse(pages, /without paying (?:a|any) Prepayment charge/i);
  return free ? { value: 0, page: free.page, box: free.box } : undefined;
}
