// The appraisal (Uniform Residential Appraisal Report, Form 1004): the subject's address from the Subject
// section's first line, the opinion of market value and the effective date from the Reconciliation.
import type { AppraisalFields, Located } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, phrasesOf, placed, withoutUndefined } from './labels.js';
import { fromProse, PROSE_DATE, PROSE_MONEY, proseDate, proseMoney } from './prose.js';
import { findDate } from './values.js';

export function extractAppraisal(pages: readonly PageLayout[]): AppraisalFields {
  return withoutUndefined({
    property: subjectAddress(pages),
    // "... my (our) opinion of the market value, as defined, of the real property that is the subject of
    // this report is $ 180,000 , as of 03/15/2026 , which is the date of inspection and the effective date of
    // this appraisal."
    value:
      fromProse(
        pages,
        new RegExp(String.raw`opinion of the market value.{0,200}?\bis\s+${PROSE_MONEY}`, 'i'),
        proseMoney,
      ) ??
      labelled(pages, /appraised value(?: of subject property)?|opinion of (?:market )?value|market value/, amount),
    effectiveDate:
      fromProse(
        pages,
        new RegExp(
          String.raw`as of\s+(${PROSE_DATE})\s*,?\s*which is the (?:date of inspection and the )?effective date of this appraisal`,
          'i',
        ),
        proseDate,
      ) ?? labelled(pages, /effective date(?: of (?:the )?appraisal)?/, findDate),
  });
}

const PARTS: [keyof Address, RegExp][] = [
  ['street', /^property address\s*:?\s*(.*)$/i],
  ['city', /^city\s*:?\s*(.*)$/i],
  ['state', /^state\s*:?\s*(.*)$/i],
  ['zip', /^zip(?: code)?\s*:?\s*(.*)$/i],
];

interface Address {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
}

/** "Property Address 456 Somewhere Ave   City Anytown   State ST   Zip Code 12345" → one line. */
function subjectAddress(pages: readonly PageLayout[]): Located<string> | undefined {
  for (const page of pages) {
    for (const line of page.lines) {
      const phrases = phrasesOf(line);
      if (!phrases.some((p) => PARTS[0]![1].test(p.text))) continue;
      const address: Address = {};
      phrases.forEach((phrase, i) => {
        for (const [part, pattern] of PARTS) {
          const m = pattern.exec(phrase.text);
          if (!m || address[part] !== undefined) continue;
          const next = phrases[i + 1]?.text;
          const value = m[1]!.trim() || (next && !PARTS.some(([, p]) => p.test(next)) ? next : '');
          if (value) address[part] = value;
          break;
        }
      });
      if (!address.street) continue;
      const place = [address.state, address.zip].filter(Boolean).join(' ');
      return placed([address.street, address.city, place].filter(Boolean).join(', '), page, line.items);
    }
  }
  return undefined;
}
