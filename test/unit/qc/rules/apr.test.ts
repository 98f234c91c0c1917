// APR-001..APR-006 against the CFPB H-25(B) sample Closing Disclosure, exactly as printed (no finding),
// and against copies of it with one figure wrong (the finding for that figure, and only that one).
import test from 'ava';
import type { RuleCode, RuleHit } from '../../../../src/qc/catalog.js';
import type { ClosingDisclosureFields, LoanFile } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/apr.js';
import { DEFAULT_RULE_CONTEXT } from '../../../../src/qc/catalog.js';
import { runRules } from '../../../../src/qc/rules/registry.js';
import {
  at,
  doc,
  loanFile,
  evidenceOfHits,
  hitsOf as familyHits,
  H25B_CLOSING_DISCLOSURE,
} from '../../../support/loan-file.js';

const H25B = H25B_CLOSING_DISCLOSURE;

const sample = (changes: Partial<ClosingDisclosureFields> = {}): LoanFile =>
  loanFile(doc('closing_disclosure', { ...H25B, ...changes }, { filename: 'cd.pdf' }));

const hitsOf = (loan: LoanFile) => familyHits(rules, loan);

function only(loan: LoanFile, code: RuleCode): RuleHit {
  const all = hitsOf(loan);
  const [hit, ...more] = all[code] ?? [];
  if (!hit) throw new Error(`${code} did not fire: ${JSON.stringify(all)}`);
  if (more.length > 0 || Object.keys(all).length !== 1)
    throw new Error(`expected ${code} alone: ${JSON.stringify(all)}`);
  return hit;
}

test('the rule set covers APR-001..APR-006 once each', (t) => {
  t.deepEqual(
    rules.map((r) => r.code),
    ['APR-001', 'APR-002', 'APR-003', 'APR-004', 'APR-005', 'APR-006'],
  );
});

test('the CFPB H-25(B) sample Closing Disclosure, as printed, produces no APR finding', (t) => {
  t.deepEqual(hitsOf(sample()), {});
});

test('a loan without mortgage insurance whose figures add up produces no APR finding (exact, nothing inferred)', (t) => {
  // $162,000 at 3.875%: $112,243.70 scheduled interest; $1,000 prepaid finance charges.
  const loan = sample({
    mortgageInsurance: at(0),
    amountFinanced: at(161_000_00, 5),
    financeCharge: at(113_243_70, 5),
    totalOfPayments: at(274_243_70 + 4_694_05 + 279_04, 5),
    apr: at(0.03926, 5),
  });
  t.deepEqual(hitsOf(loan), {});
});

// APR-001

test('APR-001 fires when the disclosed APR is 0.2 percentage point below the recomputed one', (t) => {
  const hit = only(sample({ apr: at(0.03974, 5) }), 'APR-001');
  t.is(hit.subject, undefined);
  t.is(
    hit.summary,
    'Closing Disclosure (cd.pdf, p.5) discloses APR 3.974%; recomputed APR is 4.174% (difference 0.200 > 0.125 tolerance). Mortgage insurance of $82.35 a month is assumed for about 80 months, inferred from the other disclosed figures (approximate).',
  );
});

test('APR-001 fires when the disclosed APR is 0.2 percentage point above the recomputed one', (t) => {
  const hit = only(sample({ apr: at(0.04374, 5) }), 'APR-001');
  t.regex(
    hit.summary,
    /^Closing Disclosure \(cd\.pdf, p\.5\) discloses APR 4\.374%; recomputed APR is 4\.1\d\d% \(difference 0\.1\d\d > 0\.125 tolerance\)/,
  );
});

test('APR-001 does not fire for an APR 0.1 percentage point off (within 0.125)', (t) => {
  t.deepEqual(hitsOf(sample({ apr: at(0.04074, 5) })), {});
});

test('APR-001 allows 0.25 percentage point for an irregular (construction, multiple-advance) transaction', (t) => {
  t.deepEqual(hitsOf(sample({ purpose: at('Construction'), apr: at(0.03974, 5) })), {});
  const hit = only(sample({ purpose: at('Construction'), apr: at(0.039, 5) }), 'APR-001');
  t.regex(
    hit.summary,
    /discloses APR 3\.9%; recomputed APR is 4\.174% \(difference 0\.274 > 0\.25 irregular-transaction tolerance\)/,
  );
});

test('APR-001 does not fire when the finance charge is accurate and the APR results from it (1026.22(a)(4))', (t) => {
  // No mortgage insurance; Amount Financed $161,000 (true APR 3.926%), but a $4,000 charge that is no finance
  // charge counted in the Finance Charge (overstated: accurate) and the APR computed from it, 4.135%.
  const loan = sample({
    mortgageInsurance: at(0),
    amountFinanced: at(161_000_00, 5),
    financeCharge: at(117_243_70, 5),
    apr: at(0.04135, 5),
    totalOfPayments: undefined,
  });
  t.is(hitsOf(loan)['APR-001'], undefined);
  // The same APR with the finance charge as it should be is 0.209 point off: no exception.
  const hit = hitsOf(
    sample({
      mortgageInsurance: at(0),
      amountFinanced: at(161_000_00, 5),
      financeCharge: at(113_243_70, 5),
      apr: at(0.04135, 5),
    }),
  )['APR-001']?.[0];
  t.is(
    hit?.summary,
    'Closing Disclosure (cd.pdf, p.5) discloses APR 4.135%; recomputed APR is 3.926% (difference 0.209 > 0.125 tolerance).',
  );
});

test('APR-001 is skipped when the CD lacks the APR inputs (no amount financed, no mortgage insurance figure, an adjustable product)', (t) => {
  t.is(hitsOf(sample({ apr: at(0.03974, 5), amountFinanced: undefined }))['APR-001'], undefined);
  t.is(hitsOf(sample({ apr: at(0.03974, 5), mortgageInsurance: undefined }))['APR-001'], undefined);
  t.is(hitsOf(sample({ apr: at(0.03974, 5), product: at('5/1 Adjustable Rate') }))['APR-001'], undefined);
  t.is(
    hitsOf(sample({ apr: at(0.03974, 5), financeCharge: undefined, totalOfPayments: undefined }))['APR-001'],
    undefined,
  );
});

// APR-002

test('APR-002 fires when the finance charge is understated by $500', (t) => {
  const hit = only(sample({ financeCharge: at(118_330_27, 5) }), 'APR-002');
  t.is(hit.subject, undefined);
  t.regex(
    hit.summary,
    /^Closing Disclosure \(cd\.pdf, p\.5\) discloses Finance Charge \$118,330\.27; its scheduled payments less the Amount Financed \$162,000\.00 give \$118,8\d\d\.\d\d \(understated by \$49\d\.\d\d > \$100\.00 tolerance\)\. Mortgage insurance of \$82\.35 a month is assumed for about 80 months/,
  );
});

test('APR-002 does not fire for a finance charge understated by $90, or overstated by $5,000', (t) => {
  t.deepEqual(hitsOf(sample({ financeCharge: at(118_740_27, 5) })), {});
  t.is(hitsOf(sample({ financeCharge: at(123_830_27, 5) }))['APR-002'], undefined);
});

test('APR-002 fires exactly for a loan without mortgage insurance: $101 understated', (t) => {
  const hit = hitsOf(
    sample({
      mortgageInsurance: at(0),
      amountFinanced: at(161_000_00, 5),
      financeCharge: at(113_142_70, 5),
      apr: at(0.03926, 5),
      totalOfPayments: undefined,
    }),
  )['APR-002']?.[0];
  t.truthy(hit);
  t.regex(
    hit?.summary ?? '',
    /discloses Finance Charge \$113,142\.70; .* give \$113,243\.70 \(understated by \$101\.00 > \$100\.00 tolerance\)\.$/,
  );
});

test('APR-002 is skipped without a finance charge or an amount financed', (t) => {
  t.is(hitsOf(sample({ financeCharge: undefined }))['APR-002'], undefined);
  t.is(hitsOf(sample({ financeCharge: at(118_330_27, 5), amountFinanced: undefined }))['APR-002'], undefined);
});

// APR-003

test('APR-003 fires when the Total of Payments is understated by $500', (t) => {
  const hit = only(sample({ totalOfPayments: at(285_303_36, 5) }), 'APR-003');
  t.is(hit.subject, undefined);
  t.regex(
    hit.summary,
    /^Closing Disclosure \(cd\.pdf, p\.5\) discloses Total of Payments \$285,303\.36; principal and interest \$274,243\.70, mortgage insurance \$6,5\d\d\.\d\d and Loan Costs \(D\) \$4,694\.05 \(p\.2\) add up to \$285,5\d\d\.\d\d \(understated by \$2\d\d\.\d\d > \$100\.00 tolerance\)/,
  );
});

test('APR-003 does not fire for a Total of Payments overstated, or understated by no more than $100', (t) => {
  t.is(hitsOf(sample({ totalOfPayments: at(290_000_00, 5) }))['APR-003'], undefined);
  // Recomputed (fewest months the Finance Charge and APR allow): $285,518.79.
  t.deepEqual(hitsOf(sample({ totalOfPayments: at(285_420_00, 5) })), {});
});

test('APR-003 is skipped without the Loan Costs (D) it adds', (t) => {
  t.is(hitsOf(sample({ totalOfPayments: at(285_303_36, 5), totalLoanCosts: undefined }))['APR-003'], undefined);
});

// APR-004

test('APR-004 fires when the TIP is 0.02 percentage point above the recomputed 69.46%', (t) => {
  const hit = only(sample({ tip: at(0.6948, 5) }), 'APR-004');
  t.is(hit.subject, undefined);
  t.is(
    hit.summary,
    'Closing Disclosure (cd.pdf, p.5) discloses TIP 69.48%; scheduled interest $112,243.70 plus prepaid interest $279.04 (p.2) over the Loan Amount $162,000.00 is 69.46% (difference 0.02 > 0.01 percentage point).',
  );
});

test('APR-004 does not fire for a TIP 0.01 percentage point off (within tolerance)', (t) => {
  t.deepEqual(hitsOf(sample({ tip: at(0.6947, 5) })), {});
});

test('APR-004 is skipped without the prepaid interest', (t) => {
  t.is(hitsOf(sample({ tip: at(0.7046, 5), prepaidInterest: undefined }))['APR-004'], undefined);
});

// APR-005

test('APR-005 fires when the Amount Financed is $4,000 below the Loan Amount less the prepaid finance charges', (t) => {
  const hit = hitsOf(sample({ amountFinanced: at(158_000_00, 5) }))['APR-005']?.[0];
  t.truthy(hit);
  t.is(hit?.subject, undefined);
  t.regex(
    hit?.summary ?? '',
    /^Closing Disclosure \(cd\.pdf, p\.5\) discloses Amount Financed \$158,000\.00; its scheduled payments less its Finance Charge \$118,830\.27 put it at \$162,000\.00, the Loan Amount \$162,000\.00 less prepaid finance charges of \$0\.00 \(difference \$4,000\.00 > \$100\.00 tolerance\)\./,
  );
});

test('APR-005 fires when the Amount Financed equals the Loan Amount while the finance charge holds $3,000 of prepaid charges', (t) => {
  const hit = hitsOf(
    sample({
      mortgageInsurance: at(0),
      amountFinanced: at(162_000_00, 5),
      financeCharge: at(115_243_70, 5),
      apr: at(0.04029, 5),
    }),
  )['APR-005']?.[0];
  t.regex(
    hit?.summary ?? '',
    /discloses Amount Financed \$162,000\.00; .* put it at \$159,000\.00, the Loan Amount \$162,000\.00 less prepaid finance charges of \$3,000\.00 \(difference \$3,000\.00/,
  );
});

test('APR-005 fires when the Amount Financed exceeds the Loan Amount, which prepaid charges can only reduce', (t) => {
  const hit = hitsOf(sample({ amountFinanced: at(162_500_00, 5) }))['APR-005']?.[0];
  t.truthy(hit);
  t.is(
    hit?.summary,
    'Closing Disclosure (cd.pdf, p.5) discloses Amount Financed $162,500.00, more than its Loan Amount $162,000.00 (p.1), which prepaid finance charges can only reduce (difference $500.00 > $100.00 tolerance).',
  );
});

test('APR-005 stays silent when the finance charge alone is wrong (APR-002 reports it)', (t) => {
  t.is(hitsOf(sample({ financeCharge: at(118_330_27, 5) }))['APR-005'], undefined);
});

test('APR-005 is skipped without a finance charge, or with mortgage insurance but no Total of Payments', (t) => {
  t.is(hitsOf(sample({ amountFinanced: at(158_000_00, 5), financeCharge: undefined }))['APR-005'], undefined);
  t.is(hitsOf(sample({ amountFinanced: at(158_000_00, 5), totalOfPayments: undefined }))['APR-005'], undefined);
});

// APR-006

test('APR-006 fires when the final CD discloses no APR', (t) => {
  const hit = only(sample({ apr: undefined }), 'APR-006');
  t.is(hit.subject, undefined);
  t.is(
    hit.summary,
    'Closing Disclosure (cd.pdf, p.1) discloses no Annual Percentage Rate (APR) in its Loan Calculations.',
  );
});

test('APR-006 fires when the APR is below the note rate although finance charges exist', (t) => {
  const hit = hitsOf(sample({ apr: at(0.0375, 5) }))['APR-006']?.[0];
  t.is(
    hit?.summary,
    'Closing Disclosure (cd.pdf, p.5) discloses APR 3.75%, below its Interest Rate 3.875% (p.1), although it discloses a Finance Charge of $118,830.27.',
  );
});

test('APR-006 does not fire for an APR equal to the note rate, nor when there is no Closing Disclosure', (t) => {
  t.is(hitsOf(sample({ apr: at(0.03875, 5) }))['APR-006'], undefined);
  t.deepEqual(hitsOf(loanFile()), {});
});

test('APR-006 reads the final CD: an earlier CD without an APR is not the defect', (t) => {
  const loan = loanFile(
    doc(
      'closing_disclosure',
      { ...H25B, dateIssued: at('2013-04-10'), apr: undefined },
      { filename: 'cd-initial.pdf' },
    ),
    doc('closing_disclosure', H25B, { filename: 'cd.pdf' }),
  );
  t.deepEqual(hitsOf(loan), {});
});

// Evidence and regulation

test('APR-001 rests on the APR and Amount Financed it judges and the loan terms its schedule is rebuilt from, each where it was printed', (t) => {
  t.deepEqual(evidenceOfHits(rules, sample({ apr: at(0.03974, 5) }))['APR-001'], [
    [
      'cd.pdf p.5 apr=3.974%',
      'cd.pdf p.5 amount_financed=$162,000.00',
      'cd.pdf p.1 loan_amount=$162,000.00',
      'cd.pdf p.1 interest_rate=3.875%',
      'cd.pdf p.1 loan_term=360 months',
      'cd.pdf p.1 monthly_principal_and_interest=$761.78',
      'cd.pdf p.1 mortgage_insurance=$82.35',
    ],
  ]);
});

test('APR-001 applies 12 CFR 1026.22(a)(2), and (a)(3) to an irregular transaction', (t) => {
  const regulation = (loan: LoanFile) =>
    runRules(loan, DEFAULT_RULE_CONTEXT).find((f) => f.code === 'APR-001')?.regulation;
  t.is(regulation(sample({ apr: at(0.03974, 5) })), '12 CFR 1026.22(a)(2)');
  t.is(regulation(sample({ purpose: at('Construction'), apr: at(0.039, 5) })), '12 CFR 1026.22(a)(3)');
});

test('APR-006 for a missing APR names the field it looked for, blank, on the Closing Disclosure', (t) => {
  t.deepEqual(evidenceOfHits(rules, sample({ apr: undefined }))['APR-006'], [['cd.pdf p.1 apr=null']]);
});
