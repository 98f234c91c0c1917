// The collateral rules, COL-001 and COL-002 (RULES.md): the appraisal's value against the loan amount,
// and its age at closing. Without an appraisal they do not fire (DOC-002 reports the absence).
import type { Rule, RuleHit } from '../catalog.js';
import type { DocumentOf, LoanFile } from '../fields.js';
import {
  cite,
  consummationDate,
  daysBetween,
  documentsOf,
  evidenceOf,
  finalClosingDisclosure,
  formatMoney,
  formatPercent,
  listOf,
} from './evidence.js';

/** Highest loan-to-value for a purchase, in percent (COL-001). */
const MAX_PURCHASE_LTV_PERCENT = 97;

/** An appraisal may be this old at the closing date (COL-002). */
const MAX_APPRAISAL_AGE_DAYS = 120;

export const rules: Rule[] = [
  { code: 'COL-001', check: (loan) => loanToValue(loan) },
  { code: 'COL-002', check: (loan) => staleAppraisal(loan) },
];

type Appraisal = DocumentOf<'appraisal'>;

// COL-001: with two appraisals the lower value counts, as underwriting takes it. The sale price, which a
// purchase LTV also caps the value at, is not extracted; the limit applies to purchases only (the CD's
// Purpose), other purposes having no threshold in the catalog.
function loanToValue(loan: LoanFile): RuleHit[] {
  const appraisals = documentsOf(loan, 'appraisal');
  if (appraisals.length === 0) return [];
  const valued = appraisals.filter((a) => (a.fields.value?.value ?? 0) > 0);
  if (valued.length === 0) {
    return [
      {
        summary: `${listOf(appraisals.map((a) => cite(a)))} states no opinion of value.`,
        evidence: appraisals.map((a) => evidenceOf(a, 'appraised_value', a.fields.value, null)),
      },
    ];
  }
  const cd = finalClosingDisclosure(loan);
  const amount = cd?.fields.loanAmount;
  const purpose = cd?.fields.purpose;
  if (!cd || !amount || !purpose || !/purchase/i.test(purpose.value)) return [];
  const lowest = valued.reduce((low, a) => ((a.fields.value?.value ?? 0) < (low.fields.value?.value ?? 0) ? a : low));
  const value = lowest.fields.value;
  if (!value) return [];
  // In integer cents, so that exactly 97% is not above 97% by a rounding error.
  if (amount.value * 100 <= MAX_PURCHASE_LTV_PERCENT * value.value) return [];
  const ltv = (amount.value * 100) / value.value;
  return [
    {
      summary:
        `Loan-to-value is ${formatPercent(ltv, MAX_PURCHASE_LTV_PERCENT)}: ${cite(cd, amount)} Loan ` +
        `Amount ${formatMoney(amount.value)} on a purchase ` +
        `against the appraised value ${formatMoney(value.value)} of ${cite(lowest, value)}; the ` +
        `limit for a purchase is ${MAX_PURCHASE_LTV_PERCENT}%.`,
      evidence: [
        evidenceOf(cd, 'loan_amount', amount, formatMoney(amount.value)),
        evidenceOf(cd, 'loan_purpose', purpose, purpose.value),
        evidenceOf(lowest, 'appraised_value', value, formatMoney(value.value)),
      ],
    },
  ];
}

// COL-002: the latest effective date counts: a fresh re-appraisal (or recertification) cures an old one.
function staleAppraisal(loan: LoanFile): RuleHit[] {
  const closing = consummationDate(loan);
  const cd = finalClosingDisclosure(loan);
  const dated = documentsOf(loan, 'appraisal').filter((a) => a.fields.effectiveDate);
  const latest = dated.reduce<Appraisal | undefined>(
    (last, a) =>
      !last || (a.fields.effectiveDate?.value ?? '') >= (last.fields.effectiveDate?.value ?? '') ? a : last,
    undefined,
  );
  const effective = latest?.fields.effectiveDate;
  if (!closing || !cd || !latest || !effective) return [];
  const age = daysBetween(effective.value, closing.value);
  if (age <= MAX_APPRAISAL_AGE_DAYS) return [];
  return [
    {
      summary:
        `${cite(latest, effective)} is effective ${effective.value}, ${age} days before the closing ` +
        `date ${closing.value} ` +
        `(${cite(cd, closing)}); the limit is ${MAX_APPRAISAL_AGE_DAYS} days.`,
      evidence: [
        evidenceOf(latest, 'effective_date', effective, effective.value),
        evidenceOf(cd, 'closing_date', closing, closing.value),
      ],
    },
  ];
}
