// The Loan Estimate (H-24): the shared loan terms (page-1 labels in capitals), the rate lock, the
// estimated costs at closing, and APR and TIP from the Comparisons of page 3.
import type { LoanEstimateFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { findDate } from './values.js';
import { address, CHECK_MARK, firstRight, LABEL, money, readDisclosureTerms } from './disclosure.js';
import { personName } from './values.js';
import { findValue, located, parsedValue, withoutUndefined } from './labels.js';

export function extractLoanEstimate(pages: readonly PageLayout[]): LoanEstimateFields {
  const lock = findValue(pages, /^(?:rate lock|bloqueo de tasa)$/i, (page, l) => {
    // "NO [x] YES, until 4/16/2013 ...": the option right after the check mark is the one chosen. Mark
    // and option may share a phrase, so the words after the mark are what is read.
    const phrases = page.rightOf(l, { tolerance: 2.5 });
    const text = phrases.map((p) => p.text).join(' ');
    const words = text.split(' ');
    const mark = words.findIndex((w, i) => CHECK_MARK.test(w) && /^(?:YES|NO|S[IÍ])(?![A-Za-z])/i.test(words[i + 1] ?? ''));
    const chosen = mark >= 0 ? words.slice(mark + 1).join(' ') : undefined;
    if (chosen !== undefined) return { ...l, text: chosen };
    // A form that prints only the option chosen (no boxes); a blank form prints both, unmarked.
    const options = phrases.filter((i) => /^(?:YES|NO|S[IÍ])(?![A-Za-z])/i.test(i.text.trim()));
    return options.length === 1 ? options[0] : undefined;
  });
  return withoutUndefined({
    ...readDisclosureTerms(pages),
    borrower: parsedValue(pages, /^(?:applicants|solicitantes)$/i, firstRight, personName),
    property: address(pages, LABEL.property),
    rateLocked: located(lock, (s) => /^(?:YES|S[IÍ])(?![A-Za-z])/i.test(s)),
    rateLockUntil: located(lock, (s) => (/^(?:YES|S[IÍ])(?![A-Za-z])/i.test(s) ? findDate(s) : undefined)),
    // The Spanish LE prints these figures 3 pt below their labels.
    estimatedClosingCosts: money(pages, /^(?:estimated closing costs|costos de cierre estimados)$/i, 300, 3.5),
    estimatedCashToClose: money(pages, /^(?:estimated cash to close|dinero en efectivo estimado(?: para el cierre)?)$/i, 300, 3.5),
  });
}
