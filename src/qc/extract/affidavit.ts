// A stated-income affidavit: the borrower's own statement of income and employer ("I, Anna S. Lindqvist,
// hereby state that my gross monthly income is $25,000.00."). It is evidence of what was claimed, which
// INC-004 holds against the pay stubs; it is never proof of income.
import type { AffidavitFields, Located } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, withoutUndefined } from './labels.js';
import { fromProse, PROSE_MONEY, proseMoney } from './prose.js';
import { personName, organisationName } from './values.js';

export function extractAffidavit(pages: readonly PageLayout[]): AffidavitFields {
  return withoutUndefined({
    affiant:
      fromProse(
        pages,
        /\bI,\s+([A-Z][A-Za-z.'’ -]{2,60}?),\s+(?:hereby|do hereby|being first duly sworn|state|certify|swear|affirm)/,
        personName,
      ) ?? labelled(pages, /affiant(?: name)?|borrower(?: name)?|name/, personName, { colonOnly: true }),
    employer: labelled(pages, /employer(?: name)?|employed by/, organisationName, { colonOnly: true }),
    statedMonthlyIncome: statedIncome(pages),
  });
}

/** "my gross monthly income is $25,000.00"; an annual statement ("annual income of $300,000") is divided by 12. */
function statedIncome(pages: readonly PageLayout[]): Located<number> | undefined {
  const monthly =
    fromProse(
      pages,
      new RegExp(String.raw`(?:gross\s+)?monthly\s+(?:gross\s+)?income\s+(?:is|of|was|totals?)\s+${PROSE_MONEY}`, 'i'),
      proseMoney,
    ) ?? labelled(pages, /(?:stated\s+)?(?:gross\s+)?monthly\s+income/, amount);
  if (monthly) return monthly;
  const annual =
    fromProse(
      pages,
      new RegExp(
        String.raw`(?:gross\s+)?(?:annual|yearly)\s+(?:gross\s+)?income\s+(?:is|of|was|totals?)\s+${PROSE_MONEY}`,
        'i',
      ),
      proseMoney,
    ) ?? labelled(pages, /(?:stated\s+)?(?:gross\s+)?(?:annual|yearly)\s+income/, amount);
  return annual ? { ...annual, value: Math.round(annual.value / 12) } : undefined;
}
