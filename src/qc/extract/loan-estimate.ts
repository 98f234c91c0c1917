// The Loan Estimate (H-24): the shared loan terms (page-1 labels in capitals), the rate lock, the
// estimated costs at closing, and APR and TIP from the Comparisons of page 3.
import type { LoanEstimateFields } from '../fields.js';
import { CHECKED, EMPTY } from '../reading/check-boxes.js';
import type { PageLayout } from '../reading/layout.js';
import { address, chosenOption, firstRight, LABEL, money, readDisclosureTerms } from './disclosure.js';
import { findDate, personName } from './values.js';
import { findValue, located, parsedValue, withoutUndefined } from './labels.js';

/** YES / NO, and the Spanish SÍ (which OCR reads as "Sl"). */
const YES_NO = /^(?:YES|NO|S[IÍl1])(?![A-Za-z])/i;

/**
 * A mark found in a scan's pixels beside an option OCR garbled ("☐ NO ☒ Í, hasta el 4/16/2013"): of the two
 * options, the one not NO, when NO's box is found empty and no other box is marked.
 */
function otherThanNo(words: readonly string[]): { index: number; text: string } | undefined {
  const no = words.findIndex((w) => /^NO(?![A-Za-z])/i.test(w));
  const marks = words.flatMap((w, i) => (w === CHECKED ? [i] : []));
  if (no < 1 || words[no - 1] !== EMPTY || marks.length !== 1 || words[marks[0]! + 1] === undefined) return undefined;
  return { index: marks[0]! + 1, text: 'YES' };
}

export function extractLoanEstimate(pages: readonly PageLayout[]): LoanEstimateFields {
  const lock = findValue(pages, /^(?:rate lock|bloqueo de tasa)$/i, (page, l) => {
    // "NO [x] YES, until 4/16/2013 ...": the option right after the check mark is the one chosen. Mark
    // and option may share a phrase, so the words after the mark are what is read.
    const words = page
      .rightOf(l, { tolerance: 2.5 })
      .map((p) => p.text)
      .join(' ')
      .split(' ');
    const chosen = chosenOption(words, YES_NO) ?? otherThanNo(words);
    return chosen ? { ...l, text: [chosen.text, ...words.slice(chosen.index + 1)].join(' ') } : undefined;
  });
  return withoutUndefined({
    ...readDisclosureTerms(pages),
    borrower: parsedValue(pages, /^(?:applicants|solicitantes)$/i, firstRight, personName),
    property: address(pages, LABEL.property),
    rateLocked: located(lock, (s) => !/^NO\b/i.test(s)),
    rateLockUntil: located(lock, (s) => (/^NO\b/i.test(s) ? undefined : findDate(s))),
    // The Spanish LE prints these figures 3 pt below their labels.
    estimatedClosingCosts: money(pages, /^(?:estimated closing costs|costos de cierre estimados)$/i, 300, 3.5),
    estimatedCashToClose: money(
      pages,
      /^(?:estimated cash to close|dinero en efectivo estimado(?: para el cierre)?)$/i,
      300,
      3.5,
    ),
  });
}
