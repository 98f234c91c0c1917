// The income rules, INC-001 to INC-004 (RULES.md): the URLA's stated income and employer, and any income
// sworn to in an affidavit, against the pay stubs and W-2s. They assess the borrower of the first URLA; pay
// stubs and W-2s of another named person
// (a co-borrower's) are left out of the comparison.
import type { Rule, RuleHit } from '../catalog.js';
import type { DocumentOf, IsoDate, Located, LoanDocument, LoanFile } from '../fields.js';
import { organisationKey, samePerson } from './names.js';
import type { Evidence } from '../finding.js';
import { cite, daysBetween, documentsOf, evidenceOf, formatMoney, formatPercent, listOf } from './evidence.js';

/** Pay-stub income may differ from the URLA's by this percentage of the URLA's (INC-001). */
const INCOME_TOLERANCE_PERCENT = 5;

/** Annualised year-to-date income below this percentage of last year's W-2 wages is declining (INC-002). */
const DECLINE_THRESHOLD_PERCENT = 80;

export const rules: Rule[] = [
  { code: 'INC-001', check: (loan) => [...incomeMismatch(loan), ...w2IncomeMismatch(loan)] },
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

/** An income the URLA states for the employment a pay stub is from: its base, and its total of every component. */
interface StatedIncome {
  urla: DocumentOf<'urla'>;
  base?: Located<number>;
  total?: Located<number>;
}

/**
 * The URLA income a pay stub is held against: of the URLA's current employment with the stub's employer
 * when both name one (a borrower with two jobs has a stub from each), else of its first current employment
 * (an application read from printed labels states only a base income).
 */
function statedIncomeFor(loan: LoanFile, stub: PayStub): StatedIncome | undefined {
  const urlas = documentsOf(loan, 'urla').filter((u) => u.fields.monthlyIncome || u.fields.monthlyEmploymentIncome);
  const employer = stub.fields.employer?.value;
  for (const urla of urlas) {
    const job = (urla.fields.employments ?? []).find(
      (e) =>
        e.current &&
        employer !== undefined &&
        e.employer !== undefined &&
        organisationKey(e.employer.value) === organisationKey(employer),
    );
    if (job) return { urla, base: job.income.base, total: job.monthlyTotal };
  }
  const urla = urlas[0];
  return urla && { urla, base: urla.fields.monthlyIncome, total: urla.fields.monthlyEmploymentIncome };
}

/**
 * A monthly income the URLA's base and total for its employment both miss by more than the tolerance: the
 * URLA's side of the finding, in words (against the figure nearest it) and as evidence.
 */
function unexplained(monthly: number, stated: StatedIncome): { text: string; evidence: Evidence[] } | undefined {
  const { urla, base, total } = stated;
  const figures = [base, total].filter(
    (f, i, all): f is Located<number> => f !== undefined && all.findIndex((g) => g?.value === f.value) === i,
  );
  const within = (f: Located<number>) => Math.abs(monthly - f.value) * 100 <= INCOME_TOLERANCE_PERCENT * f.value;
  if (figures.length === 0 || figures.some(within)) return undefined;
  const nearest = figures.reduce((a, b) => (Math.abs(monthly - b.value) < Math.abs(monthly - a.value) ? b : a));
  const difference = Math.abs(monthly - nearest.value);
  const relative =
    nearest.value > 0
      ? `${formatPercent((difference * 100) / nearest.value, INCOME_TOLERANCE_PERCENT)} > ${INCOME_TOLERANCE_PERCENT}%`
      : 'the URLA states none';
  const statedText =
    figures.length > 1
      ? `monthly income ${formatMoney(base!.value)} base, ${formatMoney(total!.value)} in all`
      : `monthly income ${formatMoney(nearest.value)}`;
  return {
    text: `${cite(urla, nearest)} states ${statedText} (difference ${formatMoney(difference)}, ${relative})`,
    evidence: figures.map((f) =>
      evidenceOf(urla, f === base ? 'monthly_income' : 'monthly_employment_income', f, formatMoney(f.value)),
    ),
  };
}

// INC-001: gross pay per period × periods a year / 12, from the latest pay stub, against the URLA's monthly
// income for that employment; the difference is measured against the URLA's figure. A stub's gross holds
// overtime, bonus and commission in some periods and not in others: a difference within the tolerance of
// either the base income or the employment's total is explained.
function incomeMismatch(loan: LoanFile): RuleHit[] {
  const stub = latestStub(loan, (s) => s.fields.grossPay !== undefined && s.fields.periodsPerYear !== undefined);
  const gross = stub?.fields.grossPay;
  const periods = stub?.fields.periodsPerYear;
  const stated = stub && statedIncomeFor(loan, stub);
  const monthly = stub && stubMonthly(stub);
  if (!stub || !gross || !periods || !stated || monthly === undefined) return [];
  const gap = unexplained(monthly, stated);
  if (!gap) return [];
  return [
    {
      summary:
        `${cite(stub, gross)} shows gross pay ${formatMoney(gross.value)} a period, ${periods.value} periods a year: ` +
        `${formatMoney(monthly)} a month; ${gap.text}.`,
      evidence: [
        evidenceOf(stub, 'gross_pay', gross, formatMoney(gross.value)),
        evidenceOf(stub, 'pay_periods_per_year', periods, String(periods.value)),
        ...gap.evidence,
      ],
    },
  ];
}

/** A W-2 covering fewer months of work than this (a job started late in its year) is not annualised. */
const W2_MIN_MONTHS = 3;

/** One current employment the URLA states an income for. */
interface StatedEmployment extends StatedIncome {
  employer?: Located<string>;
  start?: Located<IsoDate>;
}

/** The URLA's current wage employments: each of its employments, else the one read from its labels. */
function statedEmployments(urla: DocumentOf<'urla'>): StatedEmployment[] {
  const { employments, employer, monthlyIncome, monthlyEmploymentIncome, wageEarner } = urla.fields;
  if (employments?.length)
    return employments
      .filter((e) => e.current && e.selfEmployed?.value !== true)
      .map((e) => ({ urla, employer: e.employer, start: e.startDate, base: e.income.base, total: e.monthlyTotal }));
  if (wageEarner?.value === false) return [];
  return [{ urla, employer, base: monthlyIncome, total: monthlyEmploymentIncome }];
}

// INC-001 against the W-2: an employment no pay stub evidences (a stub of its employer, or one naming
// none) is held against the borrower's W-2 of the latest tax year from that employer. Its Medicare wages
// (box 5: gross pay, retirement deferrals included, which box 1 leaves out; box 1 when box 5 is unread)
// a month, over the months of that year worked there when the URLA's start date falls in it, against the
// employment's base and total as for a stub. A self-employed borrower's income is not wages.
function w2IncomeMismatch(loan: LoanFile): RuleHit[] {
  const borrower = borrowerOf(loan);
  const urla = documentsOf(loan, 'urla').find((u) => u.fields.monthlyIncome || u.fields.monthlyEmploymentIncome);
  if (!urla) return [];
  const stubs = documentsOf(loan, 'pay_stub').filter(
    (s) => stubMonthly(s) !== undefined && isBorrowers(s.fields.employee, borrower),
  );
  const w2s = documentsOf(loan, 'w2').filter(
    (w) => w.fields.taxYear && (w.fields.medicareWages ?? w.fields.wages) && isBorrowers(w.fields.employee, borrower),
  );
  const key = (name: Located<string> | undefined) => (name ? organisationKey(name.value) : undefined);
  return statedEmployments(urla).flatMap((job) => {
    const employer = key(job.employer);
    if (stubs.some((s) => !s.fields.employer || key(s.fields.employer) === employer)) return [];
    const w2 = w2s
      .filter((w) => employer !== undefined && key(w.fields.employer) === employer)
      .sort((a, b) => a.fields.taxYear!.value - b.fields.taxYear!.value)
      .at(-1);
    const wages = w2 && (w2.fields.medicareWages ?? w2.fields.wages);
    if (!w2 || !wages) return [];
    const year = w2.fields.taxYear!.value;
    const yearStart = `${year}-01-01`;
    const yearDays = daysBetween(yearStart, `${year + 1}-01-01`);
    const start = job.start && job.start.value > yearStart ? job.start : undefined;
    const worked = start ? daysBetween(start.value, `${year + 1}-01-01`) : yearDays;
    if ((worked * 12) / yearDays < W2_MIN_MONTHS) return [];
    const monthly = Math.round((wages.value * yearDays) / worked / 12);
    const gap = unexplained(monthly, job);
    if (!gap) return [];
    const box = w2.fields.medicareWages ? 'Medicare wages' : 'wages';
    const months = start ? ` earned from ${start.value}, as ${cite(urla, start)} states` : '';
    return [
      {
        subject: job.employer?.value,
        summary:
          `${cite(w2, wages)} shows ${year} ${box} of ${formatMoney(wages.value)}${months}: ` +
          `${formatMoney(monthly)} a month; ${gap.text}; no pay stub from ${job.employer!.value} accounts for it.`,
        evidence: [
          evidenceOf(w2, w2.fields.medicareWages ? 'medicare_wages' : 'wages', wages, formatMoney(wages.value)),
          evidenceOf(w2, 'tax_year', w2.fields.taxYear, String(year)),
          ...(start ? [evidenceOf(urla, 'employment_start', start, start.value)] : []),
          ...gap.evidence,
        ],
      },
    ];
  });
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

// INC-003: the URLA's employers, the borrower's pay stubs, and the borrower's W-2s of the latest tax year
// (an older W-2 may be from the previous job the URLA's employment history accounts for). Where the URLA
// lists employers, a stub or W-2 of any of them (a second current job, the previous one) is accounted
// for: the names differ when one names an employer the URLA does not list. Without them, the stubs and W-2s
// are held against each other.
function employerMismatch(loan: LoanFile): RuleHit[] {
  const borrower = borrowerOf(loan);
  const urla = documentsOf(loan, 'urla').find((u) => u.fields.employer || u.fields.employments?.length);
  const w2s = documentsOf(loan, 'w2').filter((w) => w.fields.employer && isBorrowers(w.fields.employee, borrower));
  const years = w2s.flatMap((w) => (w.fields.taxYear ? [w.fields.taxYear.value] : []));
  const latestYear = years.length > 0 ? Math.max(...years) : undefined;
  const listed = urla ? urlaEmployers(urla) : [];
  const shown: { doc: LoanDocument; at: Located<string> }[] = [
    ...documentsOf(loan, 'pay_stub').flatMap((s) =>
      s.fields.employer && isBorrowers(s.fields.employee, borrower) ? [{ doc: s, at: s.fields.employer }] : [],
    ),
    ...w2s.flatMap((w) =>
      w.fields.employer && (latestYear === undefined || w.fields.taxYear?.value === latestYear)
        ? [{ doc: w, at: w.fields.employer }]
        : [],
    ),
  ];
  const listedKeys = new Set(listed.map((l) => organisationKey(l.at.value)));
  if (listed.length > 0 && shown.every(({ at }) => listedKeys.has(organisationKey(at.value)))) return [];
  // The URLA's current employers, and any other it lists that a stub or W-2 names.
  const shownKeys = new Set(shown.map(({ at }) => organisationKey(at.value)));
  const named = [
    ...listed
      .filter((l) => l.current || shownKeys.has(organisationKey(l.at.value)))
      .map((l) => ({ doc: urla!, at: l.at })),
    ...shown,
  ];
  const groups = new Map<string, { printed: string; cites: string[] }>();
  for (const { doc, at } of named) {
    const key = organisationKey(at.value);
    const group = groups.get(key) ?? { printed: at.value, cites: [] };
    group.cites.push(cite(doc, at));
    groups.set(key, group);
  }
  if (groups.size < 2) return [];
  const grouped = [...groups.values()].map((g) => `${g.printed} in ${listOf(g.cites)}`);
  return [
    {
      summary: `Employer names differ: ${grouped.join('; ')}.`,
      evidence: named.map(({ doc, at }) => evidenceOf(doc, 'employer', at, at.value)),
    },
  ];
}

/** The employers a URLA lists, current ones first: every employment's, else the one read from its labels. */
function urlaEmployers(urla: DocumentOf<'urla'>): { at: Located<string>; current: boolean }[] {
  const employments = (urla.fields.employments ?? []).flatMap((e) =>
    e.employer ? [{ at: e.employer, current: e.current }] : [],
  );
  if (employments.length > 0)
    return [...employments.filter((e) => e.current), ...employments.filter((e) => !e.current)];
  return urla.fields.employer ? [{ at: urla.fields.employer, current: true }] : [];
}
