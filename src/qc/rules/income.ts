// The income rules, INC-001 to INC-004 (RULES.md): the URLA's stated income and employer, and any income
// sworn to in an affidavit, against the pay stubs and W-2s. They assess the borrower of the first URLA; pay
// stubs and W-2s of another named person
// (a co-borrower's) are left out of the comparison.
import type { Rule, RuleHit } from '../catalog.js';
import type { DocumentOf, IsoDate, Located, LoanDocument, LoanFile } from '../fields.js';
import { organisationKey, samePerson } from './names.js';
import { cite, daysBetween, documentsOf, evidenceOf, formatMoney, formatPercent, listOf } from './evidence.js';

/** Pay-stub income may differ from the URLA's by this percentage of the URLA's (INC-001). */
const INCOME_TOLERANCE_PERCENT = 5;

/** Annualised year-to-date income below this percentage of last year's W-2 wages is declining (INC-002). */
const DECLINE_THRESHOLD_PERCENT = 80;

export const rules: Rule[] = [
  { code: 'INC-001', check: (loan) => incomeMismatch(loan) },
  { code: 'INC-002', check: (loan) => decliningIncome(loan) },
  { code: 'INC-003', check: (loan) => employerMismatch(loan) },
  { code: 'INC-004', check: (loan) => statedIncomeConflict(loan) },
];

type PayStub = DocumentOf<'pay_stub'>;

/** The borrower whose income the rules assess: the first URLA's. */
function borrowerOf(loan: LoanFile): string | undefined {
  return documentsOf(loan, 'urla').find((u) => u.fields.borrower)?.fields.borrower?.value;
}

/** Pay stubs and W-2s are the borrower's unless they name someone else. */
function isBorrowers(employee: Located<string> | undefined, borrower: string | undefined): boolean {
  return !employee || !borrower || samePerson(employee.value, borrower);
}

/** A pay stub's date: the pay date (year-to-date figures run to it), else the period end. */
function stubDate(stub: PayStub): Located<IsoDate> | undefined {
  return stub.fields.payDate ?? stub.fields.periodEnd;
}

/** The latest of the borrower's pay stubs that carry what a rule reads (package order breaks ties). */
function latestStub(
  loan: LoanFile,
  usable: (stub: PayStub) => boolean,
  borrower = borrowerOf(loan),
): PayStub | undefined {
  const stubs = documentsOf(loan, 'pay_stub').filter((s) => usable(s) && isBorrowers(s.fields.employee, borrower));
  const dated = stubs.filter((s) => stubDate(s));
  const ordered = (dated.length > 0 ? dated : stubs).map((stub, i) => ({ stub, i }));
  ordered.sort((a, b) => (stubDate(a.stub)?.value ?? '').localeCompare(stubDate(b.stub)?.value ?? '') || a.i - b.i);
  return ordered.at(-1)?.stub;
}

// INC-001: gross pay per period × periods a year / 12, from the latest pay stub, against the first URLA
// that states a monthly income; the difference is measured against the URLA's figure.
function incomeMismatch(loan: LoanFile): RuleHit[] {
  const urla = documentsOf(loan, 'urla').find((u) => u.fields.monthlyIncome);
  const stated = urla?.fields.monthlyIncome;
  const stub = latestStub(loan, (s) => s.fields.grossPay !== undefined && s.fields.periodsPerYear !== undefined);
  const gross = stub?.fields.grossPay;
  const periods = stub?.fields.periodsPerYear;
  if (!urla || !stated || !stub || !gross || !periods) return [];
  const monthly = Math.round((gross.value * periods.value) / 12);
  const difference = Math.abs(monthly - stated.value);
  if (difference * 100 <= INCOME_TOLERANCE_PERCENT * stated.value) return [];
  const relative =
    stated.value > 0
      ? `${formatPercent((difference * 100) / stated.value, INCOME_TOLERANCE_PERCENT)} > ${INCOME_TOLERANCE_PERCENT}%`
      : 'the URLA states none';
  return [
    {
      summary:
        `${cite(stub, gross)} shows gross pay ${formatMoney(gross.value)} a period, ${periods.value} periods a year: ` +
        `${formatMoney(monthly)} a month; ${cite(urla, stated)} states monthly income ${formatMoney(stated.value)} ` +
        `(difference ${formatMoney(difference)}, ${relative}).`,
      evidence: [
        evidenceOf(stub, 'gross_pay', gross, formatMoney(gross.value)),
        evidenceOf(stub, 'pay_periods_per_year', periods, String(periods.value)),
        evidenceOf(urla, 'monthly_income', stated, formatMoney(stated.value)),
      ],
    },
  ];
}

/** Gross pay a period × periods a year / 12: the monthly income a pay stub evidences. */
function stubMonthly(stub: PayStub): number | undefined {
  const { grossPay, periodsPerYear } = stub.fields;
  return grossPay && periodsPerYear ? Math.round((grossPay.value * periodsPerYear.value) / 12) : undefined;
}

// INC-004: an affidavit states an income ("my gross monthly income is $25,000.00"); the latest pay stub of
// the same person evidences one. The stub is the evidence: a statement more than 5% off it is a conflict
// (stated income is never taken as proof, whatever the affidavit says of itself).
function statedIncomeConflict(loan: LoanFile): RuleHit[] {
  return documentsOf(loan, 'affidavit').flatMap((affidavit) => {
    const stated = affidavit.fields.statedMonthlyIncome;
    if (!stated) return [];
    const stub = latestStub(
      loan,
      (s) => stubMonthly(s) !== undefined,
      affidavit.fields.affiant?.value ?? borrowerOf(loan),
    );
    const monthly = stub && stubMonthly(stub);
    if (!stub || monthly === undefined || monthly <= 0) return [];
    const difference = Math.abs(stated.value - monthly);
    if (difference * 100 <= INCOME_TOLERANCE_PERCENT * monthly) return [];
    const { grossPay, periodsPerYear } = stub.fields;
    return [
      {
        subject: `${affidavit.filename}:${stated.page}`,
        summary:
          `${cite(affidavit, stated)} states monthly income ${formatMoney(stated.value)}; ` +
          `${cite(stub, grossPay)} shows gross pay ` +
          `${formatMoney(grossPay!.value)} a period, ${periodsPerYear!.value} periods a year: ` +
          `${formatMoney(monthly)} a month ` +
          `(the statement is ` +
          `${formatPercent((difference * 100) / monthly, INCOME_TOLERANCE_PERCENT)} off, > ` +
          `${INCOME_TOLERANCE_PERCENT}%).`,
        evidence: [
          evidenceOf(affidavit, 'stated_monthly_income', stated, formatMoney(stated.value)),
          evidenceOf(stub, 'gross_pay', grossPay, formatMoney(grossPay!.value)),
          evidenceOf(stub, 'pay_periods_per_year', periodsPerYear, String(periodsPerYear!.value)),
        ],
      },
    ];
  });
}

// INC-002: the year-to-date gross scaled to a full year by the share of the year elapsed at the stub's
// date, against the W-2 of the year before. The W-2 must be of the same employer when both name one: a
// borrower who changed jobs this year has a partial year-to-date, which would read as a decline.
function decliningIncome(loan: LoanFile): RuleHit[] {
  const stub = latestStub(loan, (s) => s.fields.ytdGross !== undefined && stubDate(s) !== undefined);
  const ytd = stub?.fields.ytdGross;
  const date = stub && stubDate(stub);
  if (!stub || !ytd || !date) return [];
  const year = Number(date.value.slice(0, 4));
  const w2 = priorYearW2(loan, year - 1, stub.fields.employer?.value);
  const wages = w2?.fields.wages;
  if (!w2 || !wages || wages.value <= 0) return [];
  const elapsed = yearElapsed(date.value);
  const annualised = Math.round(ytd.value / elapsed);
  const ratio = (annualised * 100) / wages.value;
  if (ratio >= DECLINE_THRESHOLD_PERCENT) return [];
  return [
    {
      summary:
        `${cite(stub, ytd)} shows year-to-date gross ${formatMoney(ytd.value)} at ${date.value} ` +
        `(${(elapsed * 100).toFixed(1)}% of the year), ${formatMoney(annualised)} annualised; ` +
        `${cite(w2, wages)} shows ` +
        `${year - 1} wages of ${formatMoney(wages.value)}, so this year runs at ` +
        `${formatPercent(ratio, DECLINE_THRESHOLD_PERCENT)} of last year's (< ${DECLINE_THRESHOLD_PERCENT}%).`,
      evidence: [
        evidenceOf(stub, 'ytd_gross', ytd, formatMoney(ytd.value)),
        evidenceOf(stub, stub.fields.payDate ? 'pay_date' : 'period_end', date, date.value),
        evidenceOf(w2, 'wages', wages, formatMoney(wages.value)),
      ],
    },
  ];
}

/** The borrower's W-2 for `taxYear`: of `employer` when one names it, else the only one of that year. */
function priorYearW2(loan: LoanFile, taxYear: number, employer: string | undefined): DocumentOf<'w2'> | undefined {
  const borrower = borrowerOf(loan);
  const candidates = documentsOf(loan, 'w2').filter(
    (w) => w.fields.taxYear?.value === taxYear && w.fields.wages && isBorrowers(w.fields.employee, borrower),
  );
  const named = (w: DocumentOf<'w2'>) => employer !== undefined && w.fields.employer !== undefined;
  const sameEmployer = candidates.filter(
    (w) => named(w) && organisationKey(w.fields.employer?.value ?? '') === organisationKey(employer ?? ''),
  );
  if (sameEmployer.length > 0) return sameEmployer.at(-1);
  const unnamed = candidates.filter((w) => !named(w));
  return unnamed.length === 1 ? unnamed[0] : undefined;
}

/** The share of its year a date has reached: 1 on December 31. */
function yearElapsed(date: IsoDate): number {
  const year = Number(date.slice(0, 4));
  const start = `${year}-01-01`;
  return (daysBetween(start, date) + 1) / daysBetween(start, `${year + 1}-01-01`);
}

// INC-003: the first URLA's employer, the borrower's pay stubs, and the borrower's W-2s of the latest tax
// year (an older W-2 may be from the previous job the URLA's employment history accounts for).
function employerMismatch(loan: LoanFile): RuleHit[] {
  const borrower = borrowerOf(loan);
  const urla = documentsOf(loan, 'urla').find((u) => u.fields.employer);
  const w2s = documentsOf(loan, 'w2').filter((w) => w.fields.employer && isBorrowers(w.fields.employee, borrower));
  const years = w2s.flatMap((w) => (w.fields.taxYear ? [w.fields.taxYear.value] : []));
  const latestYear = years.length > 0 ? Math.max(...years) : undefined;
  const named: { doc: LoanDocument; at: Located<string> }[] = [
    ...(urla?.fields.employer ? [{ doc: urla, at: urla.fields.employer }] : []),
    ...documentsOf(loan, 'pay_stub').flatMap((s) =>
      s.fields.employer && isBorrowers(s.fields.employee, borrower) ? [{ doc: s, at: s.fields.employer }] : [],
    ),
    ...w2s.flatMap((w) =>
      w.fields.employer && (latestYear === undefined || w.fields.taxYear?.value === latestYear)
        ? [{ doc: w, at: w.fields.employer }]
        : [],
    ),
  ];
  const groups = new Map<string, { printed: string; cites: string[] }>();
  for (const { doc, at } of named) {
    const key = organisationKey(at.value);
    const group = groups.get(key) ?? { printed: at.value, cites: [] };
    group.cites.push(cite(doc, at));
    groups.set(key, group);
  }
  if (groups.size < 2) return [];
  const listed = [...groups.values()].map((g) => `${g.printed} in ${listOf(g.cites)}`);
  return [
    {
      summary: `Employer names differ: ${listed.join('; ')}.`,
      evidence: named.map(({ doc, at }) => evidenceOf(doc, 'employer', at, at.value)),
    },
  ];
}
