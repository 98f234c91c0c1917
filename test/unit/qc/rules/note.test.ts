// NTE-001..NTE-005: a Note written for the H-25(B) sample loan ($162,000 at 3.875% for 30 years, $761.78,
// 5% late after 15 days, a two-year prepayment penalty) against the sample CD, and one term changed at a time.
import test from 'ava';
import type { ClosingDisclosureFields, LoanFile, NoteFields } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/note.js';
import {
  at,
  doc,
  loanFile,
  evidenceOfHits,
  hitsOf as familyHits,
  H25B_CLOSING_DISCLOSURE,
} from '../../../support/loan-file.js';

const NOTE: NoteFields = {
  principal: at(162_000_00),
  interestRate: at(0.03875),
  monthlyPayment: at(761_78),
  firstPaymentDate: at('2013-06-01'),
  maturityDate: at('2043-05-01'),
  lateChargePercent: at(0.05, 2),
  lateChargeGraceDays: at(15, 2),
  prepaymentPenaltyYears: at(2, 2),
};

const CD = H25B_CLOSING_DISCLOSURE;

const loan = (note: Partial<NoteFields> = {}, cd: Partial<ClosingDisclosureFields> = {}): LoanFile =>
  loanFile(
    doc('note', { ...NOTE, ...note }, { filename: 'note.pdf' }),
    doc('closing_disclosure', { ...CD, ...cd }, { filename: 'cd.pdf' }),
  );

const hitsOf = (loan: LoanFile) => familyHits(rules, loan);

test('the rule set covers NTE-001..NTE-005 once each', (t) => {
  t.deepEqual(
    rules.map((r) => r.code),
    ['NTE-001', 'NTE-002', 'NTE-003', 'NTE-004', 'NTE-005'],
  );
});

test('a Note that matches the H-25(B) sample CD produces no NTE finding', (t) => {
  t.deepEqual(hitsOf(loan()), {});
});

test('without a Note, or without a Closing Disclosure, no NTE rule fires', (t) => {
  t.deepEqual(
    hitsOf(
      loanFile(doc('closing_disclosure', { ...CD, monthlyPrincipalAndInterest: at(761_78) }, { filename: 'cd.pdf' })),
    ),
    {},
  );
  t.deepEqual(hitsOf(loanFile(doc('note', { ...NOTE, monthlyPayment: at(761_78) }, { filename: 'note.pdf' }))), {});
});

// NTE-001

test('NTE-001 fires when the Note principal differs from the CD Loan Amount', (t) => {
  const hits = hitsOf(loan({ principal: at(160_000_00), monthlyPayment: at(752_38) }));
  t.deepEqual(hits['NTE-001'], [
    {
      summary:
        'Note (note.pdf, p.1) states principal $160,000.00; Closing Disclosure (cd.pdf, p.1) ' +
        'discloses Loan Amount $162,000.00 (difference $2,000.00).',
    },
  ]);
});

test('NTE-001 is skipped when the Note principal was not read', (t) => {
  t.is(hitsOf(loan({ principal: undefined }))['NTE-001'], undefined);
});

// NTE-002

test('NTE-002 fires when the Note rate is 4% and the CD Interest Rate 3.875%', (t) => {
  const hits = hitsOf(loan({ interestRate: at(0.04), monthlyPayment: at(773_42) }));
  t.deepEqual(hits['NTE-002'], [
    {
      summary:
        'Note (note.pdf, p.1) states interest rate 4%; Closing Disclosure (cd.pdf, p.1) discloses ' +
        'Interest Rate 3.875%.',
    },
  ]);
});

test(
  'NTE-002 does not fire for the same rate read with floating-point noise, and is skipped ' + 'without a CD rate',
  (t) => {
    t.is(hitsOf(loan({ interestRate: at(0.03875000001) }))['NTE-002'], undefined);
    t.is(hitsOf(loan({ interestRate: at(0.04) }, { interestRate: undefined }))['NTE-002'], undefined);
  },
);

// NTE-003

test('NTE-003 fires on the Note when its $770.00 payment is not the $761.78 the formula gives', (t) => {
  t.deepEqual(hitsOf(loan({ monthlyPayment: at(770_00) }))['NTE-003'], [
    {
      subject: 'note',
      summary:
        'Note (note.pdf, p.1) discloses monthly principal and interest $770.00; $162,000.00 at ' +
        '3.875% over 360 months amortizes at $761.78 ' +
        '(difference $8.22 > $0.02).',
    },
  ]);
});

test('NTE-003 fires on the CD when its Monthly Principal & Interest is 3 cents off', (t) => {
  const hits = hitsOf(loan({}, { monthlyPrincipalAndInterest: at(761_81) }));
  t.deepEqual(hits['NTE-003'], [
    {
      subject: 'closing_disclosure',
      summary:
        'Closing Disclosure (cd.pdf, p.1) discloses monthly principal and interest $761.81; ' +
        '$162,000.00 at 3.875% over 360 months amortizes at ' +
        '$761.78 (difference $0.03 > $0.02).',
    },
  ]);
});

test('NTE-003 does not fire for a payment 2 cents off, and leaves balloon and interest-only loans alone', (t) => {
  t.is(hitsOf(loan({ monthlyPayment: at(761_80) }, { monthlyPrincipalAndInterest: at(761_76) }))['NTE-003'], undefined);
  t.is(
    hitsOf(loan({ monthlyPayment: at(523_13) }, { balloonPayment: at(true), monthlyPrincipalAndInterest: at(523_13) }))[
      'NTE-003'
    ],
    undefined,
  );
  t.is(
    hitsOf(
      loan({}, { product: at('5 Year Interest Only, 5/1 Adjustable Rate'), monthlyPrincipalAndInterest: at(523_13) }),
    )['NTE-003'],
    undefined,
  );
});

test("NTE-003 takes the Note's term from the CD when the Note's dates were not read, and says so", (t) => {
  const hit = hitsOf(loan({ monthlyPayment: at(770_00), firstPaymentDate: undefined }))['NTE-003']?.[0];
  t.regex(
    hit?.summary ?? '',
    /over 360 months \(the Loan Term of Closing Disclosure \(cd\.pdf, p\.1\)\) amortizes at \$761\.78/,
  );
});

test('NTE-003 is skipped without the principal, rate or payment it needs', (t) => {
  t.is(
    hitsOf(loan({ monthlyPayment: at(770_00), interestRate: undefined }, { monthlyPrincipalAndInterest: undefined }))[
      'NTE-003'
    ],
    undefined,
  );
});

// NTE-004

test('NTE-004 fires when the Note matures after 25 years but the CD Loan Term is 30 years', (t) => {
  const hits = hitsOf(loan({ maturityDate: at('2038-05-01') }));
  t.deepEqual(hits['NTE-004'], [
    {
      subject: 'maturity',
      summary:
        'Note (note.pdf, p.1) sets maturity 2038-05-01, 300 monthly payments from the first on ' +
        '2013-06-01; Closing Disclosure (cd.pdf, p.1) ' +
        'discloses a Loan Term of 360 months (maturity 2043-05-01).',
    },
  ]);
});

test('NTE-004 fires when the Note has no prepayment penalty but the CD discloses one', (t) => {
  const hits = hitsOf(loan({ prepaymentPenaltyYears: at(0, 2) }));
  t.deepEqual(hits['NTE-004'], [
    {
      subject: 'prepayment_penalty',
      summary:
        'Note (note.pdf, p.2) allows prepayment without a penalty; Closing Disclosure (cd.pdf, p.1) ' +
        'discloses a Prepayment Penalty (as high as $3,240.00).',
    },
  ]);
});

test('NTE-004 fires when the Note has a 2-year prepayment penalty the CD does not disclose', (t) => {
  const hit = hitsOf(loan({}, { prepaymentPenalty: at(false), prepaymentPenaltyMax: undefined }))['NTE-004']?.[0];
  t.is(hit?.subject, 'prepayment_penalty');
  t.is(
    hit?.summary,
    'Note (note.pdf, p.2) provides a prepayment penalty for 2 years; Closing Disclosure (cd.pdf, ' +
      'p.1) discloses no Prepayment Penalty.',
  );
});

test(
  'NTE-004 does not fire when the maturity day differs but the month matches, and is skipped ' +
    'without the first payment date',
  (t) => {
    t.is(hitsOf(loan({ maturityDate: at('2043-05-15') }))['NTE-004'], undefined);
    t.is(hitsOf(loan({ maturityDate: at('2038-05-01'), firstPaymentDate: undefined }))['NTE-004'], undefined);
  },
);

// NTE-005

test('NTE-005 fires for a 4% late charge on the Note against 5% on the CD, and 10 grace days against 15', (t) => {
  const hits = hitsOf(loan({ lateChargePercent: at(0.04, 2), lateChargeGraceDays: at(10, 2) }));
  t.deepEqual(hits['NTE-005'], [
    {
      subject: 'late_charge_percent',
      summary: 'Note (note.pdf, p.2) sets a late charge of 4%; Closing Disclosure (cd.pdf, p.4) discloses 5%.',
    },
    {
      subject: 'late_charge_grace_days',
      summary: 'Note (note.pdf, p.2) charges late after 10 days; Closing Disclosure (cd.pdf, p.4) discloses 15 days.',
    },
  ]);
});

test('NTE-005 is skipped when the CD late-payment terms were not read', (t) => {
  t.is(
    hitsOf(loan({ lateChargePercent: at(0.04, 2) }, { lateChargePercent: undefined, lateChargeGraceDays: undefined }))[
      'NTE-005'
    ],
    undefined,
  );
});

// Evidence

test(
  'NTE-001 rests on the Note principal and the CD Loan Amount, NTE-005 on both late charges, each ' +
    'where it was printed',
  (t) => {
    t.deepEqual(evidenceOfHits(rules, loan({ principal: at(160_000_00), monthlyPayment: at(752_38) }))['NTE-001'], [
      ['note.pdf p.1 principal=$160,000.00', 'cd.pdf p.1 loan_amount=$162,000.00'],
    ]);
    t.deepEqual(evidenceOfHits(rules, loan({ lateChargePercent: at(0.04, 3) }))['NTE-005'], [
      ['note.pdf p.3 late_charge_percent=4%', 'cd.pdf p.4 late_charge_percent=5%'],
    ]);
  },
);
