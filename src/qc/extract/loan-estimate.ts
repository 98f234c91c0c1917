// The Loan Estimate (H-24): the shared loan terms (page-1 labels in capitals), the rate lock, the
// estimated costs at closing, and APR and TIP from the Comparisons of page 3.
import type { LoanEstimateFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { findDate } from './values.js';
import { address, money, readDisclosureTerms } from './disclosure.js';
import { findValue, located, withoutUndefined } from './labels.js';

export function extractLoanEstimate(pages: readonly PageLayout[]): LoanEstimateFields {
  const lock = findValue(pages, /^rate lock$/i, (page, l) => {
    // "NO [x] YES, until 4/16/2013 ...": the option right after the check mark is the one chosen.
    const items = page.rightOf(l, { tolerance: 2.5 });
    const mark = items.findIndex((i) => /^[xX✓✔☒■]$/.test(i.text.trim()));
    return mark >= 0 ? items[mark + 1] : items.find((i) => /^(YES|NO)\b/i.test(i.text.trim()));
  });
  return withoutUndefined({
    ...readDisclosureTerms(pages),
    borrower: located(findValue(pages, /^applicants$/i, (p, l) => p.rightOf(l)[0]), (s) => s),
    property: address(pages, /^property$/i),
    rateLocked: located(lock, (s) => /^YES/i.test(s)),
    rateLockUntil: located(lock, (s) => (/^YES/i.test(s) ? findDate(s) : undefined)),
    estimatedClosingCosts: money(pages, /^estimated closing costs$/i),
    estimatedCashToClose: money(pages, /^estimated cash to close$/i),
  });
}
