// The income rules INC-001 to INC-004: the URLA's income and employer, and an affidavit's stated income,
// against pay stubs and W-2s.
import test from 'ava';
import type { RuleCode } from '../../../../src/qc/catalog.js';
import type { AffidavitFields, LoanFile, PayStubFields, UrlaFields, W2Fields } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/income.js';
import { at, doc, evidenceOfHits, loanFile, ruleHits } from '../../../support/loan-file.js';

function check(code: RuleCode, loan: LoanFile) {
  return ruleHits(rules, code, loan);
}

const urla = (fields: UrlaFields, filename = 'urla.pdf') =>
  doc('urla', { borrower: at('Michael Jones'), ...fields }, { filename });
const stub = (fields: PayStubFields, filename = 'stub.pdf') => doc('pay_stub', fields, { filename });
const w2 = (fields: W2Fields, filename = 'w2.pdf') => doc('w2', fields, { filename });

// ---- INC-001 -----------------------------------------------------------------------------------------

test('INC-001 fires when pay-stub income differs from the URLA monthly income by more than 5%', (t) => {
  const loan = loanFile(
    urla({ monthlyIncome: at(600_000, 2) }),
    stub({ payDate: at('2026-03-13'), grossPay: at(250_000), periodsPerYear: at(26) }),
  );
  const hits = check('INC-001', loan);
  t.deepEqual(hits, [
    {
      summary:
        'Pay stub (stub.pdf, p.1) shows gross pay $2,500.00 a period, 26 periods a year: $5,416.67 a month; ' +
        'URLA (urla.pdf, p.2) states monthly income $6,000.00 (difference $583.33, 9.7% > 5%).',
    },
  ]);
});

test('INC-001 does not fire at exactly 5%, and fires a cent beyond', (t) => {
  const monthlyStub = stub({ payDate: at('2026-03-31'), grossPay: at(525_000), periodsPerYear: at(12) });
  t.deepEqual(check('INC-001', loanFile(urla({ monthlyIncome: at(500_000) }), monthlyStub)), []);
  const over = stub({ payDate: at('2026-03-31'), grossPay: at(525_001), periodsPerYear: at(12) });
  t.regex(
    check('INC-001', loanFile(urla({ monthlyIncome: at(500_000) }), over))[0]?.summary ?? '',
    /difference \$250\.01, 5\.0002% > 5%/,
  );
});

test('INC-001 uses the latest pay stub', (t) => {
  const loan = loanFile(
    urla({ monthlyIncome: at(541_667) }),
    stub({ payDate: at('2026-03-13'), grossPay: at(250_000), periodsPerYear: at(26) }, 'march.pdf'),
    stub({ payDate: at('2026-01-02'), grossPay: at(200_000), periodsPerYear: at(26) }, 'january.pdf'),
  );
  t.deepEqual(check('INC-001', loan), []);
});

test("INC-001 leaves out a co-borrower's pay stub", (t) => {
  const loan = loanFile(
    urla({ monthlyIncome: at(541_667) }),
    stub(
      { employee: at('Michael A. Jones'), payDate: at('2026-03-13'), grossPay: at(250_000), periodsPerYear: at(26) },
      'his.pdf',
    ),
    stub(
      { employee: at('Mary Stone'), payDate: at('2026-03-20'), grossPay: at(100_000), periodsPerYear: at(26) },
      'hers.pdf',
    ),
  );
  t.deepEqual(check('INC-001', loan), []);
});

test('INC-001 does not fire without the URLA income or the pay frequency', (t) => {
  t.deepEqual(check('INC-001', loanFile(urla({}), stub({ grossPay: at(250_000), periodsPerYear: at(26) }))), []);
  t.deepEqual(check('INC-001', loanFile(urla({ monthlyIncome: at(900_000) }), stub({ grossPay: at(250_000) }))), []);
  t.deepEqual(check('INC-001', loanFile(urla({ monthlyIncome: at(900_000) }))), []);
});

// ---- INC-002 -----------------------------------------------------------------------------------------

test('INC-002 fires when year-to-date income annualised is below 80% of the prior-year W-2', (t) => {
  const loan = loanFile(
    urla({}),
    stub({ payDate: at('2026-06-30'), employer: at('Acme Corp'), ytdGross: at(3_000_000, 1) }),
    w2({ taxYear: at(2025), employer: at('ACME CORPORATION'), wages: at(9_000_000) }, 'w2-2025.pdf'),
    w2({ taxYear: at(2024), employer: at('Acme Corp'), wages: at(3_000_000) }, 'w2-2024.pdf'),
  );
  t.deepEqual(check('INC-002', loan), [
    {
      summary:
        'Pay stub (stub.pdf, p.1) shows year-to-date gross $30,000.00 at 2026-06-30 (49.6% of the ' +
        'year), $60,497.24 annualised; ' +
        "W-2 (w2-2025.pdf, p.1) shows 2025 wages of $90,000.00, so this year runs at 67.2% of last year's (< 80%).",
    },
  ]);
});

test('INC-002 does not fire when the annualised year-to-date income keeps up with the W-2', (t) => {
  const loan = loanFile(
    stub({ payDate: at('2026-06-30'), ytdGross: at(4_500_000) }),
    w2({ taxYear: at(2025), wages: at(9_000_000) }),
  );
  t.deepEqual(check('INC-002', loan), []);
});

test('INC-002 does not fire without a W-2 of the prior year, or one of the same employer', (t) => {
  const current = stub({ payDate: at('2026-06-30'), employer: at('Acme Corp'), ytdGross: at(1_000_000) });
  t.deepEqual(check('INC-002', loanFile(current, w2({ taxYear: at(2024), wages: at(9_000_000) }))), []);
  t.deepEqual(
    check(
      'INC-002',
      loanFile(current, w2({ taxYear: at(2025), employer: at('Apex Industries'), wages: at(9_000_000) })),
    ),
    [],
  );
});

test('INC-002 does not fire without a year-to-date figure or a pay date', (t) => {
  const prior = w2({ taxYear: at(2025), wages: at(9_000_000) });
  t.deepEqual(check('INC-002', loanFile(stub({ payDate: at('2026-06-30') }), prior)), []);
  t.deepEqual(check('INC-002', loanFile(stub({ ytdGross: at(1_000) }), prior)), []);
});

/** A URLA read from the official form: its employments, each with its income by component. */
const job = (employer: string, base: number, total: number, current = true) => ({
  current,
  employer: at(employer),
  income: { base: at(base) },
  monthlyTotal: at(total),
});

test('INC-001 holds a stub against the employment it is from, and its base or its total explains it', (t) => {
  const twoJobs = urla({
    employer: at('Cascade Valley Dental Group'),
    monthlyIncome: at(625_000),
    monthlyEmploymentIncome: at(660_000),
    employments: [
      job('Cascade Valley Dental Group', 625_000, 660_000),
      job('Harbor Pilots Association', 200_000, 200_000),
    ],
  });
  // The second job's stub: $2,000.00 a month, as the URLA states for that employer.
  const second = stub({ employer: at('Harbor Pilots Association'), grossPay: at(200_000), periodsPerYear: at(12) });
  t.deepEqual(check('INC-001', loanFile(twoJobs, second)), []);
  // A stub of the first job with its bonus in the period: the total explains it ($6,600.00).
  const withBonus = stub({
    employer: at('Cascade Valley Dental Group'),
    grossPay: at(660_000),
    periodsPerYear: at(12),
  });
  t.deepEqual(check('INC-001', loanFile(twoJobs, withBonus)), []);
  // A stub far from both: the finding states both figures and cites each.
  const low = stub({ employer: at('Cascade Valley Dental Group'), grossPay: at(400_000), periodsPerYear: at(12) });
  const [hit] = check('INC-001', loanFile(twoJobs, low));
  t.regex(
    hit?.summary ?? '',
    /states monthly income \$6,250\.00 base, \$6,600\.00 in all \(difference \$2,250\.00, 36\.0% > 5%\)/,
  );
  t.deepEqual(evidenceOfHits(rules, loanFile(twoJobs, low))['INC-001'], [
    [
      'stub.pdf p.1 gross_pay=$4,000.00',
      'stub.pdf p.1 pay_periods_per_year=12',
      'urla.pdf p.1 monthly_income=$6,250.00',
      'urla.pdf p.1 monthly_employment_income=$6,600.00',
    ],
  ]);
});

test('INC-001 holds the URLA against the latest W-2 of an employer no pay stub evidences', (t) => {
  const stated = urla({ employer: at('Acme Corp'), monthlyIncome: at(750_000) });
  // $72,000.00 of Medicare wages in 2025: $6,000.00 a month against the URLA's $7,500.00.
  const low = w2({ taxYear: at(2025), employer: at('ACME CORP.'), wages: at(6_500_000), medicareWages: at(7_200_000) });
  const older = w2({ taxYear: at(2024), employer: at('Acme Corp'), wages: at(9_000_000) }, 'w2-2024.pdf');
  t.deepEqual(check('INC-001', loanFile(stated, older, low)), [
    {
      subject: 'Acme Corp',
      summary:
        'W-2 (w2.pdf, p.1) shows 2025 Medicare wages of $72,000.00: $6,000.00 a month; URLA (urla.pdf, p.1) ' +
        'states monthly income $7,500.00 (difference $1,500.00, 20.0% > 5%); no pay stub from Acme Corp ' +
        'accounts for it.',
    },
  ]);
  t.deepEqual(evidenceOfHits(rules, loanFile(stated, low))['INC-001'], [
    ['w2.pdf p.1 medicare_wages=$72,000.00', 'w2.pdf p.1 tax_year=2025', 'urla.pdf p.1 monthly_income=$7,500.00'],
  ]);
  // A current pay stub of that employer evidences this year's income: last year's W-2 is no longer the test.
  const raise = stub({ employer: at('Acme Corp'), grossPay: at(375_000), periodsPerYear: at(24) });
  t.deepEqual(check('INC-001', loanFile(stated, low, raise)), []);
  // Box 1 leaves out retirement deferrals; box 5 is the gross the URLA states.
  const deferred = w2({
    taxYear: at(2025),
    employer: at('Acme Corp'),
    wages: at(8_000_000),
    medicareWages: at(9_000_000),
  });
  t.deepEqual(check('INC-001', loanFile(stated, deferred)), []);
  // Without box 5, box 1.
  const box1 = w2({ taxYear: at(2025), employer: at('Acme Corp'), wages: at(9_100_000) });
  t.deepEqual(check('INC-001', loanFile(stated, box1)), []);
  // A W-2 of another employer is INC-003's question, not this one's.
  const other = w2({ taxYear: at(2025), employer: at('Apex Industries'), wages: at(3_000_000) });
  t.deepEqual(check('INC-001', loanFile(stated, other)), []);
});

test('INC-001 annualises a W-2 over the months worked, and not a self-employed income', (t) => {
  const since = (start: string, selfEmployed = false) =>
    urla({
      monthlyIncome: at(750_000),
      employments: [
        {
          current: true,
          employer: at('Acme Corp'),
          startDate: at(start),
          selfEmployed: at(selfEmployed),
          income: { base: at(750_000) },
          monthlyTotal: at(750_000),
        },
      ],
    });
  // Half of 2025 worked: $45,000.00 is $7,500.00 a month.
  const half = w2({ taxYear: at(2025), employer: at('Acme Corp'), wages: at(4_500_000) });
  t.deepEqual(check('INC-001', loanFile(since('2025-07-02'), half)), []);
  const [hit] = check('INC-001', loanFile(since('2025-04-01'), half));
  // From April 1: 275 days of 365 worked.
  t.regex(
    hit?.summary ?? '',
    /\$45,000\.00 earned from 2025-04-01, as URLA \(urla\.pdf, p\.1\) states: \$4,977\.27 a month/,
  );
  // Six weeks of a year say nothing of a month's income.
  t.deepEqual(check('INC-001', loanFile(since('2025-11-15'), half)), []);
  // A business owner's W-2 from the own company is not the income the URLA states.
  t.deepEqual(check('INC-001', loanFile(since('2020-01-01', true), half)), []);
});

// ---- INC-003 -----------------------------------------------------------------------------------------

test('INC-003 fires when the W-2 names another employer than the URLA and the pay stub', (t) => {
  const loan = loanFile(
    urla({ employer: at('Acme Corporation', 2) }),
    stub({ employer: at('ACME CORP.') }),
    w2({ taxYear: at(2025), employer: at('Apex Industries LLC') }),
  );
  const hits = check('INC-003', loan);
  t.deepEqual(hits, [
    {
      summary:
        'Employer names differ: Acme Corporation in URLA (urla.pdf, p.2) and Pay stub (stub.pdf, ' +
        'p.1); Apex Industries LLC in W-2 (w2.pdf, p.1).',
    },
  ]);
});

test(
  'INC-003 accounts for every employer the URLA lists: a second ' +
    'current job, and the previous one on last year’s W-2',
  (t) => {
    const listed = urla({
      employer: at('Volkov Marine Services LLC'),
      employments: [
        job('Volkov Marine Services LLC', 980_000, 1_100_000),
        job('Harbor Pilots Association', 200_000, 200_000),
        job('Columbia Tug Co', 0, 610_000, false),
      ],
    });
    const loan = loanFile(
      listed,
      stub({ employer: at('Harbor Pilots Association') }),
      w2({ taxYear: at(2025), employer: at('Columbia Tug Co') }),
    );
    t.deepEqual(check('INC-003', loan), []);
    // An employer the URLA does not list is a difference, told beside the URLA's current employers.
    const other = loanFile(listed, stub({ employer: at('Seaside Cannery Inc') }));
    t.deepEqual(check('INC-003', other), [
      {
        summary:
          'Employer names differ: Volkov Marine Services LLC in URLA (urla.pdf, p.1); Harbor Pilots Association in ' +
          'URLA (urla.pdf, p.1); Seaside Cannery Inc in Pay stub (stub.pdf, p.1).',
      },
    ]);
  },
);

test('INC-003 does not fire when the names differ only in case, punctuation and corporate suffixes', (t) => {
  const loan = loanFile(
    urla({ employer: at('The Acme Company') }),
    stub({ employer: at('ACME, INC.') }),
    w2({ taxYear: at(2025), employer: at('Acme LLC') }),
  );
  t.deepEqual(check('INC-003', loan), []);
});

test("INC-003 leaves out W-2s older than the latest tax year and a co-borrower's documents", (t) => {
  const loan = loanFile(
    urla({ employer: at('Acme Corp') }),
    stub({ employer: at('Acme Corp') }),
    w2({ taxYear: at(2025), employer: at('Acme Corp') }, 'w2-2025.pdf'),
    w2({ taxYear: at(2024), employer: at('Previous Employer Inc') }, 'w2-2024.pdf'),
    stub({ employee: at('Mary Stone'), employer: at('Ficus Bank') }, 'mary.pdf'),
  );
  t.deepEqual(check('INC-003', loan), []);
});

test('INC-003 does not fire when only one document names an employer', (t) => {
  t.deepEqual(check('INC-003', loanFile(urla({ employer: at('Acme Corp') }), stub({}), w2({ taxYear: at(2025) }))), []);
});

// ---- INC-004 -----------------------------------------------------------------------------------------

const affidavit = (fields: AffidavitFields) =>
  doc('affidavit', fields, { filename: 'file.pdf', pages: [{ number: 8, source: 'text_layer', confidence: null }] });

test("INC-004 fires when an affidavit states an income more than 5% off the same person's pay stubs", (t) => {
  const loan = loanFile(
    stub({
      employee: at('Anna S. Lindqvist'),
      payDate: at('2026-06-26'),
      grossPay: at(310_000),
      periodsPerYear: at(26),
    }),
    affidavit({ affiant: at('Anna S. Lindqvist', 8), statedMonthlyIncome: at(2_500_000, 8) }),
  );
  t.deepEqual(check('INC-004', loan), [
    {
      subject: 'file.pdf:8',
      summary:
        'Affidavit (file.pdf, p.8) states monthly income $25,000.00; Pay stub (stub.pdf, p.1) shows ' +
        'gross pay $3,100.00 a period, ' +
        '26 periods a year: $6,716.67 a month (the statement is 272.2% off, > 5%).',
    },
  ]);
});

test(
  'INC-004 does not fire when the affidavit agrees with the stubs, or names someone else, or no ' +
    'stub gives a monthly income',
  (t) => {
    const anna = stub({ employee: at('Anna S. Lindqvist'), grossPay: at(310_000), periodsPerYear: at(26) });
    t.deepEqual(
      check('INC-004', loanFile(anna, affidavit({ affiant: at('Anna Lindqvist'), statedMonthlyIncome: at(680_000) }))),
      [],
    );
    t.deepEqual(
      check('INC-004', loanFile(anna, affidavit({ affiant: at('Daniel Okafor'), statedMonthlyIncome: at(2_500_000) }))),
      [],
    );
    t.deepEqual(
      check('INC-004', loanFile(stub({ grossPay: at(310_000) }), affidavit({ statedMonthlyIncome: at(2_500_000) }))),
      [],
    );
  },
);
