// QMF-001: points and fees against the QM limits of 12 CFR 1026.43(e)(3) (2026 figures), the tier
// boundaries, and which table a consummation date reads.
import test from 'ava';
import type { ClosingDisclosureFields, FeeLine, LoanFile } from '../../../../src/qc/fields.js';
import {
  qmLimitTable,
  qmPointsAndFeesLimit,
  rules,
  type QmLimitTable,
} from '../../../../src/qc/rules/points-and-fees.js';
import { at, doc, loanFile, ruleHits } from '../../../support/loan-file.js';

function check(loan: LoanFile) {
  return ruleHits(rules, 'QMF-001', loan);
}

const fee = (name: string, amount: number, section: FeeLine['section'] = 'A', page = 2): FeeLine => ({
  section,
  name,
  amount,
  page,
});
const cd = (fields: Partial<ClosingDisclosureFields>) =>
  loanFile(
    doc(
      'closing_disclosure',
      { fees: [], closingDate: at('2026-03-31'), loanAmount: at(16_200_000), ...fields },
      { filename: 'cd.pdf' },
    ),
  );

// The H-25(B) sample's section A: $405 of points, a $300 application fee, a $1,097 underwriting fee.
const sampleOrigination = [
  fee('0.25 % of Loan Amount (Points)', 40_500),
  fee('Application Fee', 30_000),
  fee('Underwriting Fee', 109_700),
];

test('QMF-001 fires when section A charges exceed 3% of a loan of $137,958 or more', (t) => {
  const fees = [
    fee('1 % of Loan Amount (Points)', 162_000),
    fee('Application Fee', 30_000),
    fee('Underwriting Fee', 300_000),
    fee('Appraisal Fee', 50_000, 'B'),
  ];
  const hits = check(cd({ fees, points: at(162_000, 2) }));
  t.deepEqual(hits, [
    {
      summary:
        'Closing Disclosure (cd.pdf, p.2) shows points and fees of $4,920.00 (section A origination ' +
        'charges) on a Loan Amount of $162,000.00 (p.1); ' +
        'the QM limit for loans of $137,958 or more (3%) is $4,860.00 (figures effective ' +
        '2026-01-01), exceeded by $60.00.',
    },
  ]);
});

test('QMF-001 does not fire for the H-25(B) sample: $1,802.00 of origination charges on $162,000', (t) => {
  t.deepEqual(check(cd({ fees: sampleOrigination, points: at(40_500, 2) })), []);
});

test('QMF-001 counts points printed apart from the section A lines once', (t) => {
  const hits = check(
    cd({ fees: [fee('Application Fee', 30_000), fee('Underwriting Fee', 400_000)], points: at(100_000, 2) }),
  );
  t.regex(
    hits[0]?.summary ?? '',
    /points and fees of \$5,300\.00 \(section A origination charges and \$1,000\.00 of points\)/,
  );
});

test('QMF-001 applies the fixed $4,139 limit to a $100,000 loan', (t) => {
  const hits = check(cd({ loanAmount: at(10_000_000), fees: [fee('Origination Fee', 414_000)] }));
  t.regex(
    hits[0]?.summary ?? '',
    /the QM limit for loans of \$82,775 to \$137,958 \(\$4,139\) is \$4,139\.00 .* exceeded by \$1\.00\./,
  );
  t.deepEqual(check(cd({ loanAmount: at(10_000_000), fees: [fee('Origination Fee', 413_900)] })), []);
});

test('QMF-001 does not fire without a loan amount or without any origination charge', (t) => {
  t.deepEqual(check(loanFile(doc('closing_disclosure', { fees: [fee('Origination Fee', 1_000_000)] }))), []);
  t.deepEqual(check(cd({ fees: [fee('Title – Settlement Agent Fee', 1_000_000, 'C')] })), []);
  t.deepEqual(check(loanFile()), []);
});

test('QM tiers: each lower bound belongs to its tier, a cent below falls to the next', (t) => {
  const limit = (loanAmount: number) => qmPointsAndFeesLimit(loanAmount, '2026-06-01');
  t.is(limit(13_795_800).limit, 413_874); // 3% of $137,958
  t.is(limit(13_795_800).tier, 'loans of $137,958 or more (3%)');
  t.is(limit(13_795_799).limit, 413_900);
  t.is(limit(8_277_500).limit, 413_900);
  t.is(limit(8_277_500).tier, 'loans of $82,775 to $137,958 ($4,139)');
  t.is(limit(8_277_499).limit, 413_874); // 5% of $82,774.99, rounded down
  t.is(limit(2_759_200).limit, 137_960); // 5% of $27,592
  t.is(limit(2_759_200).tier, 'loans of $27,592 to $82,775 (5%)');
  t.is(limit(2_759_199).limit, 138_000);
  t.is(limit(1_724_500).limit, 138_000);
  t.is(limit(1_724_500).tier, 'loans of $17,245 to $27,592 ($1,380)');
  t.is(limit(1_724_499).limit, 137_959); // 8% of $17,244.99
  t.is(limit(1_724_499).tier, 'loans below $17,245 (8%)');
});

test('QMF-001 at a tier boundary: $4,138.74 is allowed on $137,958, a cent more is not', (t) => {
  t.deepEqual(check(cd({ loanAmount: at(13_795_800), fees: [fee('Origination Fee', 413_874)] })), []);
  t.is(check(cd({ loanAmount: at(13_795_800), fees: [fee('Origination Fee', 413_875)] })).length, 1);
});

test('the QM table is chosen by consummation date; a date before the first table uses the earliest', (t) => {
  const tables: QmLimitTable[] = [
    { effective: '2025-01-01', tiers: [{ from: 0, limit: { percent: 3 } }] },
    { effective: '2026-01-01', tiers: [{ from: 0, limit: { percent: 4 } }] },
  ];
  t.is(qmLimitTable('2024-06-30', tables).effective, '2025-01-01');
  t.is(qmLimitTable('2025-12-31', tables).effective, '2025-01-01');
  t.is(qmLimitTable('2026-01-01', tables).effective, '2026-01-01');
  t.is(qmLimitTable(undefined, tables).effective, '2026-01-01');
  t.is(qmLimitTable('2019-01-01').effective, '2026-01-01', 'the 2026 figures are the earliest held');
});

test('QMF-001 uses the earliest table for a Closing Disclosure dated before it', (t) => {
  const hits = check(cd({ closingDate: at('2025-06-30'), fees: [fee('Origination Fee', 500_000)] }));
  t.regex(hits[0]?.summary ?? '', /\(figures effective 2026-01-01\)/);
});
