// TRD-006..TRD-008: the fee lines of the CFPB H-24(B) Loan Estimate and its H-25(B) Closing Disclosure
// (borrower-paid amounts as printed: no tolerance excess), then single fees or credits changed, cured and not.
import test from 'ava';
import type { ClosingDisclosureFields, FeeLine, LoanEstimateFields, LoanFile } from '../../../../src/qc/fields.js';
import { feeKey, rules } from '../../../../src/qc/rules/tolerance.js';
import { at, doc, loanFile, evidenceOfHits, hitsOf as familyHits } from '../../../support/loan-file.js';

const fee = (section: FeeLine['section'], name: string, amount: number): FeeLine => ({
  section,
  name,
  amount,
  page: 2,
});

/** H-24(B) page 2, whole dollars as the LE prints them. */
const LE_FEES: FeeLine[] = [
  fee('A', '.25 % of Loan Amount (Points)', 405_00),
  fee('A', 'Application Fee', 300_00),
  fee('A', 'Underwriting Fee', 1_097_00),
  fee('B', 'Appraisal Fee', 405_00),
  fee('B', 'Credit Report Fee', 30_00),
  fee('B', 'Flood Determination Fee', 20_00),
  fee('B', 'Flood Monitoring Fee', 32_00),
  fee('B', 'Tax Monitoring Fee', 75_00),
  fee('B', 'Tax Status Research Fee', 110_00),
  fee('C', 'Pest Inspection Fee', 135_00),
  fee('C', 'Survey Fee', 65_00),
  fee('C', 'Title – Insurance Binder', 700_00),
  fee('C', 'Title – Lender’s Title Policy', 535_00),
  fee('C', 'Title – Settlement Agent Fee', 502_00),
  fee('C', 'Title – Title Search', 1_261_00),
  fee('E', 'Recording Fees and Other Taxes', 85_00),
  fee('F', 'Homeowner’s Insurance Premium ( 6 months)', 605_00),
  fee('F', 'Prepaid Interest ( $17.44 per day for 15 days @ 3.875%)', 262_00),
  fee('G', 'Homeowner’s Insurance', 202_00),
  fee('G', 'Property Taxes', 211_00),
  fee('H', 'Title – Owner’s Title Policy (optional)', 1_017_00),
];

/** H-25(B) page 2, borrower-paid: the appraisal was paid by others and the transfer tax by the seller. */
const CD_FEES: FeeLine[] = [
  fee('A', '0.25 % of Loan Amount (Points)', 405_00),
  fee('A', 'Application Fee', 300_00),
  fee('A', 'Underwriting Fee', 1_097_00),
  fee('B', 'Appraisal Fee to John Smith Appraisers Inc.', 0),
  fee('B', 'Credit Report Fee to Information Inc.', 29_80),
  fee('B', 'Flood Determination Fee to Info Co.', 20_00),
  fee('B', 'Flood Monitoring Fee to Info Co.', 31_75),
  fee('B', 'Tax Monitoring Fee to Info Co.', 75_00),
  fee('B', 'Tax Status Research Fee to Info Co.', 80_00),
  fee('C', 'Pest Inspection Fee to Pests Co.', 120_50),
  fee('C', 'Survey Fee to Surveys Co.', 85_00),
  fee('C', 'Title – Insurance Binder to Epsilon Title Co.', 650_00),
  fee('C', 'Title – Lender’s Title Insurance to Epsilon Title Co.', 500_00),
  fee('C', 'Title – Settlement Agent Fee to Epsilon Title Co.', 500_00),
  fee('C', 'Title – Title Search to Epsilon Title Co.', 800_00),
  fee('E', 'Recording Fees Deed: $40.00 Mortgage: $45.00', 85_00),
  fee('E', 'Transfer Tax to Any State', 0),
  fee('F', 'Homeowner’s Insurance Premium ( 12 mo.) to Insurance Co.', 1_209_96),
  fee('F', 'Prepaid Interest ( $17.44 per day from 4/15/13 to 5/1/13 )', 279_04),
  fee('F', 'Property Taxes ( 6 mo.) to Any County USA', 631_80),
  fee('G', 'Homeowner’s Insurance $100.83 per month for 2 mo.', 201_66),
  fee('G', 'Property Taxes $105.30 per month for 2 mo.', 210_60),
  fee('H', 'HOA Capital Contribution to HOA Acre Inc.', 500_00),
  fee('H', 'HOA Processing Fee to HOA Acre Inc.', 150_00),
  fee('H', 'Home Inspection Fee to Engineers Inc.', 750_00),
  fee('H', 'Home Warranty Fee to XYZ Warranty Inc.', 450_00),
  fee('H', 'Title – Owner’s Title Insurance (optional) to Epsilon Title Co.', 1_000_00),
];

/** CD fees with some lines' amounts replaced (by feeKey) and lines added. */
function cdFees(amounts: Record<string, number> = {}, added: FeeLine[] = []): FeeLine[] {
  return [
    ...CD_FEES.map((f) => (feeKey(f.name) in amounts ? { ...f, amount: amounts[feeKey(f.name)] ?? f.amount } : f)),
    ...added,
  ];
}

/** CD fees with the title search bought from the creditor's list (section B, 10%) at `amount`. */
function titleSearchFromList(amount: number): FeeLine[] {
  return CD_FEES.map((f) => (feeKey(f.name) === 'title_title_search' ? { ...f, section: 'B' as const, amount } : f));
}

const pair = (o: { le?: Partial<LoanEstimateFields>; cd?: Partial<ClosingDisclosureFields> } = {}): LoanFile =>
  loanFile(
    doc(
      'loan_estimate',
      { dateIssued: at('2013-02-15'), fees: LE_FEES, lenderCredits: at(0, 2), ...o.le },
      { filename: 'le.pdf' },
    ),
    doc(
      'closing_disclosure',
      { dateIssued: at('2013-04-15'), fees: CD_FEES, lenderCredits: at(0, 2), ...o.cd },
      { filename: 'cd.pdf' },
    ),
  );

const hitsOf = (loan: LoanFile) => familyHits(rules, loan);

test('the rule set covers TRD-006..TRD-008 once each', (t) => {
  t.deepEqual(
    rules.map((r) => r.code),
    ['TRD-006', 'TRD-007', 'TRD-008'],
  );
});

test('fee names match across the forms: payees, parentheses, points and the regulated E lines', (t) => {
  t.is(feeKey('Appraisal Fee to John Smith Appraisers Inc.'), 'appraisal_fee');
  t.is(feeKey('Title – Lender’s Title Insurance to Epsilon Title Co.'), 'title_lenders_title_insurance');
  t.is(feeKey('.25 % of Loan Amount (Points)'), 'points');
  t.is(feeKey('Recording Fees Deed: $40.00 Mortgage: $45.00'), 'recording_fees');
  t.is(feeKey('Recording Fees and Other Taxes'), 'recording_fees');
  t.is(feeKey('Transfer Tax to Any State'), 'transfer_taxes');
  t.is(feeKey('Prepaid Interest ( $17.44 per day from 4/15/13 to 5/1/13 )'), 'prepaid_interest');
});

test('the CFPB H-24(B) Loan Estimate and H-25(B) Closing Disclosure fees produce no tolerance finding', (t) => {
  t.deepEqual(hitsOf(pair()), {});
});

test('no LE, or an LE without fee lines, produces no tolerance finding', (t) => {
  t.deepEqual(
    hitsOf(loanFile(doc('closing_disclosure', { fees: cdFees({ appraisal_fee: 605_00 }) }, { filename: 'cd.pdf' }))),
    {},
  );
  t.deepEqual(hitsOf(pair({ le: { fees: [] }, cd: { fees: cdFees({ appraisal_fee: 605_00 }) } })), {});
});

// TRD-006

test('TRD-006 fires when the appraisal fee rises from $405 to $605 with no cure', (t) => {
  const hits = hitsOf(pair({ cd: { fees: cdFees({ appraisal_fee: 605_00 }) } }));
  t.deepEqual(hits, {
    'TRD-006': [
      {
        subject: 'appraisal_fee',
        summary:
          'Appraisal Fee rose from $405.00 on Loan Estimate (le.pdf, p.2) to $605.00 on Closing Disclosure (cd.pdf, p.2) (+$200.00, zero tolerance); Closing Disclosure (cd.pdf, p.1) discloses no cure.',
      },
    ],
  });
});

test('TRD-006 fires for a new origination charge and a borrower-paid transfer tax the LE did not show', (t) => {
  const hits = hitsOf(
    pair({ cd: { fees: cdFees({ transfer_taxes: 950_00 }, [fee('A', 'Document Preparation Fee', 150_00)]) } }),
  );
  t.deepEqual(
    hits['TRD-006']?.map((h) => h.subject),
    ['transfer_taxes', 'document_preparation_fee'],
  );
  t.is(
    hits['TRD-006']?.[1]?.summary,
    'Document Preparation Fee of $150.00 on Closing Disclosure (cd.pdf, p.2) was not on Loan Estimate (le.pdf, p.1) (+$150.00, zero tolerance); Closing Disclosure (cd.pdf, p.1) discloses no cure.',
  );
});

test('TRD-006 fires when the lender credit falls from $500 to $300', (t) => {
  const hits = hitsOf(pair({ le: { lenderCredits: at(500_00, 2) }, cd: { lenderCredits: at(300_00, 3) } }));
  t.deepEqual(hits['TRD-006'], [
    {
      subject: 'lender_credits',
      summary:
        'Lender credits fell from $500.00 on Loan Estimate (le.pdf, p.2) to $300.00 on Closing Disclosure (cd.pdf, p.3) (-$200.00, zero tolerance); Closing Disclosure (cd.pdf, p.1) discloses no cure.',
    },
  ]);
});

test('TRD-006 does not fire for increases within the LE whole-dollar rounding, or in fees without a limit', (t) => {
  t.deepEqual(hitsOf(pair({ cd: { fees: cdFees({ credit_report_fee: 30_40, home_warranty_fee: 900_00 }) } })), {});
});

test('TRD-006 is skipped for lender credits when the LE credit was not read', (t) => {
  t.deepEqual(hitsOf(pair({ le: { lenderCredits: undefined }, cd: { lenderCredits: at(300_00, 3) } })), {});
});

test('TRD-006 does not fire for a cured excess like the H-25(F) sample: "exceeds legal limits by $200", lender credit $500 including $200', (t) => {
  const file = pair({
    le: { lenderCredits: at(300_00, 2) },
    cd: { fees: cdFees({ appraisal_fee: 605_00 }), lenderCredits: at(500_00, 2), toleranceCure: at(200_00, 2) },
  });
  t.deepEqual(hitsOf(file), {});
});

// TRD-007

test("TRD-007 fires when a title search from the creditor's list (CD section B) rises to $2,000 and the 10% bucket exceeds 110% of the LE with no cure", (t) => {
  const hits = hitsOf(pair({ cd: { fees: titleSearchFromList(2_000_00) } }));
  // The bucket on both sides: recording fees $85 and the title search ($1,261 estimated).
  t.deepEqual(hits, {
    'TRD-007': [
      {
        summary:
          "Recording fees and services from the creditor's list total $2,085.00 on Closing Disclosure (cd.pdf, p.2) against $1,346.00 on Loan Estimate (le.pdf, p.1), $604.40 above the 110% limit of $1,480.60; no cure is disclosed.",
      },
    ],
  });
});

test('TRD-007 does not fire within 110%, nor for a service the borrower shopped for off the list (CD section C, no limit)', (t) => {
  t.deepEqual(hitsOf(pair({ cd: { fees: titleSearchFromList(1_350_00) } })), {});
  t.deepEqual(
    hitsOf(pair({ cd: { fees: cdFees({ title_title_search: 5_000_00 }) } })),
    {},
    "section C on the CD: the borrower's own provider",
  );
});

test('TRD-007 does not fire when the 10% excess is cured', (t) => {
  const file = pair({
    cd: { fees: titleSearchFromList(2_000_00), lenderCredits: at(604_40, 2), toleranceCure: at(604_40, 1) },
  });
  t.deepEqual(hitsOf(file), {});
});

// TRD-008

test('TRD-008 fires when the cure disclosed ($150) is smaller than the $200 excess', (t) => {
  const file = pair({
    cd: { fees: cdFees({ appraisal_fee: 605_00 }), lenderCredits: at(150_00, 2), toleranceCure: at(150_00, 1) },
  });
  t.deepEqual(hitsOf(file), {
    'TRD-008': [
      {
        summary:
          'The fees on Closing Disclosure (cd.pdf, p.1) exceed the tolerances of Loan Estimate (le.pdf, p.1) by $200.00 (zero tolerance $200.00, 10% bucket $0.00); the cure disclosed, "exceeds legal limits by $150.00", is $50.00 short.',
      },
    ],
  });
});

test('TRD-008 fires when a higher lender credit covers the excess but the CD does not state the amount exceeding legal limits', (t) => {
  const file = pair({ cd: { fees: cdFees({ appraisal_fee: 605_00 }), lenderCredits: at(200_00, 2) } });
  const hits = hitsOf(file);
  t.deepEqual(Object.keys(hits), ['TRD-008']);
  t.regex(
    hits['TRD-008']?.[0]?.summary ?? '',
    /exceed the tolerances .* by \$200\.00 .*; a lender credit covers it, but the Closing Disclosure states the excess as nothing rather than \$200\.00\.$/,
  );
});

test('TRD-008 counts zero-tolerance and 10% excesses together against the cure', (t) => {
  const fees = titleSearchFromList(2_000_00).map((f) =>
    feeKey(f.name) === 'appraisal_fee' ? { ...f, amount: 605_00 } : f,
  );
  const file = pair({ cd: { fees, lenderCredits: at(200_00, 2), toleranceCure: at(200_00, 1) } });
  t.regex(
    hitsOf(file)['TRD-008']?.[0]?.summary ?? '',
    /by \$804\.40 \(zero tolerance \$200\.00, 10% bucket \$604\.40\); the cure disclosed, "exceeds legal limits by \$200\.00", is \$604\.40 short\./,
  );
});

test('TRD-008 does not fire without an excess, even when a cure is printed', (t) => {
  t.deepEqual(hitsOf(pair({ cd: { toleranceCure: at(200_00, 1), lenderCredits: at(200_00, 2) } })), {});
});

// Evidence

test('TRD-006 rests on the fee line as estimated and as charged, named alike on both forms', (t) => {
  t.deepEqual(evidenceOfHits(rules, pair({ cd: { fees: cdFees({ appraisal_fee: 605_00 }) } }))['TRD-006'], [
    ['le.pdf p.2 fee.appraisal_fee=$405.00', 'cd.pdf p.2 fee.appraisal_fee=$605.00'],
  ]);
});
