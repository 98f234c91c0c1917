// The bank statement: the bank and the statement period ("Statement Period: 03/01/2013 - 03/31/2013").
// Statements are often scanned; lines and phrases read OCR words and text runs alike.
import type { BankStatementFields, Located } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { labelled, onLine, phrasesOf, placed, plainText, withoutUndefined } from './labels.js';
import { findDate } from './values.js';

const DATE = /(\d{1,2}\/\d{1,2}\/\d{2,4}|[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4})/.source;
const PERIOD = new RegExp(
  String.raw`(?:statement period|for the period|period)(?: from)?:?\s*${DATE}\s*(?:-|–|—|to|through|thru)\s*${DATE}`,
  'i',
);
/** Words an institution's name carries. */
const INSTITUTION = /\b(?:bank|credit union|savings|federal|trust|financial|bancorp|n\.a\.)\b/i;

export function extractBankStatement(pages: readonly PageLayout[]): BankStatementFields {
  const period = onLine(pages, PERIOD);
  const at = (text: string | undefined): Located<string> | undefined => {
    const value = text && findDate(text);
    return period && value ? { value, page: period.page, box: period.box } : undefined;
  };
  return withoutUndefined({
    bank: labelled(pages, /bank(?: name)?|financial institution/, plainText, { colonOnly: true }) ?? letterhead(pages),
    periodStart:
      at(period?.match[1]) ?? labelled(pages, /(?:statement )?(?:beginning|start|opening) date|period start/, findDate),
    periodEnd:
      at(period?.match[2]) ?? labelled(pages, /(?:statement )?(?:ending|end|closing) date|period end/, findDate),
  });
}

/** The institution's name in the letterhead: the first of the top lines that names one and is no title. */
function letterhead(pages: readonly PageLayout[]): Located<string> | undefined {
  const page = pages[0];
  if (!page) return undefined;
  for (const line of page.lines.slice(0, 6)) {
    const phrase = phrasesOf(line)[0];
    if (phrase && INSTITUTION.test(phrase.text) && !/statement/i.test(phrase.text))
      return placed(phrase.text, page, phrase.item);
  }
  return undefined;
}
