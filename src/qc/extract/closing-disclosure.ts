// The Closing Disclosure (H-25): the shared loan terms plus the closing information, the costs at
// closing and the Loan Calculations of page 5 (labels there end with a period).
import type { ClosingDisclosureFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { MONEY, US_DATE, parseDate, parseMoney, personName } from './values.js';
import { calculation, firstRight, money, readDisclosureTerms } from './disclosure.js';
import { findValue, located, parsedValue, withoutUndefined } from './labels.js';
import { fromProse } from './prose.js';

export function extractClosingDisclosure(pages: readonly PageLayout[]): ClosingDisclosureFields {
  const date = (label: RegExp) =>
    located(
      findValue(pages, label, (p, l) => p.valueRightOf(l, US_DATE)),
      parseDate,
    );
  const figure = (label: RegExp) => calculation(pages, label, MONEY, parseMoney);
  return withoutUndefined({
    ...readDisclosureTerms(pages),
    // "Borrower" also heads the From/To boxes of Calculating Cash to Close, next to another "Borrower".
    borrower: parsedValue(pages, /^(?:borrower|deudor|prestatario)$/i, firstRight, personName),
    closingDate: date(/^(?:closing date|fecha de cierre)$/i),
    disbursementDate: date(/^(?:disbursement date|fecha de desembolso)$/i),
    // Page 1's "Closing Costs" is J. TOTAL CLOSING COSTS; an excerpt without page 1 still prints J.
    closingCosts:
      money(pages, /^(?:closing costs|costos de cierre)$/i) ??
      money(pages, /^J\.\s+(?:TOTAL CLOSING COSTS|TOTAL DE COSTOS DE CIERRE)\b/, 600),
    cashToClose: money(pages, /^(?:cash to close|dinero en efectivo para(?: el cierre)?)$/i),
    totalLoanCosts: money(pages, /^D\.\s+(?:TOTAL LOAN COSTS|COSTOS TOTALES DEL PR[EÉ]STAMO)\b/, 600),
    totalOfPayments: figure(/^(?:total of payments|pagos totales)\.?$/i),
    financeCharge: figure(/^(?:finance charge|cargo financiero)\.?$/i),
    amountFinanced: figure(/^(?:amount financed|monto financiado)\.?$/i),
    toleranceCure: toleranceCure(pages),
  });
}

/** "Increase exceeds legal limits by $200": the amount the creditor credits back for a tolerance excess. */
function toleranceCure(pages: readonly PageLayout[]): ClosingDisclosureFields['toleranceCure'] {
  return fromProse(
    pages,
    /exceeds legal limits\s+by\s+(\$[\d,]+(?:\.\d{2})?)/i,
    (text) => parseMoney(text) ?? undefined,
  );
}
