// NTE-001..NTE-005: the Note against the final Closing Disclosure (principal, rate, term, prepayment
// penalty, late charge) and both disclosed monthly payments against the amortization formula.
import { monthlyPayment } from '../apr.js';
import type { Rule, RuleHit } from '../catalog.js';
import type { Cents, DocumentOf, IsoDate, Located, LoanFile, NoteFields } from '../fields.js';
import type { Evidence } from '../finding.js';
import { cite, documentsOf, evidenceOf, finalClosingDisclosure, formatMoney, formatRate } from './evidence.js';

type Note = DocumentOf<'note'>;
type ClosingDisclosure = DocumentOf<'closing_disclosure'>;

/** RULES.md NTE-003: more than two cents from the formula. */
const PAYMENT_TOLERANCE: Cents = 2;
/** Rates are printed to thousandths of a percent; anything closer is the same rate. */
const RATE_EPSILON = 5e-7;

/**
 * The Note that states a field: the first in package order. A Note split over two logical documents
 * (a cover page, a second file) still yields its values.
 */
function noteWith<K extends keyof NoteFields>(
  loan: LoanFile,
  key: K,
): { note: Note; value: NonNullable<NoteFields[K]> } | undefined {
  for (const note of documentsOf(loan, 'note')) {
    const value = note.fields[key];
    if (value !== undefined) return { note, value: value as NonNullable<NoteFields[K]> };
  }
  return undefined;
}

const sameRate = (a: number, b: number) => Math.abs(a - b) <= RATE_EPSILON;

// NTE-001.
function principalMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  const principal = noteWith(loan, 'principal');
  const loanAmount = cd?.fields.loanAmount;
  if (!cd || !principal || !loanAmount || principal.value.value === loanAmount.value) return [];
  return [
    {
      summary:
        `${cite(principal.note, principal.value)} states principal ` +
        `${formatMoney(principal.value.value)}; ${cite(cd, loanAmount)} discloses ` +
        `Loan Amount ${formatMoney(loanAmount.value)} (difference ` +
        `${formatMoney(Math.abs(principal.value.value - loanAmount.value))}).`,
      evidence: [
        evidenceOf(principal.note, 'principal', principal.value, formatMoney(principal.value.value)),
        evidenceOf(cd, 'loan_amount', loanAmount, formatMoney(loanAmount.value)),
      ],
    },
  ];
}

// NTE-002.
function rateMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  const rate = noteWith(loan, 'interestRate');
  const cdRate = cd?.fields.interestRate;
  if (!cd || !rate || !cdRate || sameRate(rate.value.value, cdRate.value)) return [];
  return [
    {
      summary:
        `${cite(rate.note, rate.value)} states interest rate ${formatRate(rate.value.value)}; ` +
        `${cite(cd, cdRate)} discloses ` +
        `Interest Rate ${formatRate(cdRate.value)}.`,
      evidence: [
        evidenceOf(rate.note, 'interest_rate', rate.value, formatRate(rate.value.value)),
        evidenceOf(cd, 'interest_rate', cdRate, formatRate(cdRate.value)),
      ],
    },
  ];
}

/** Whole months from one date's month to another's: 2013-06-01 → 2043-05-01 is 359. */
function monthsBetween(from: IsoDate, to: IsoDate): number {
  return (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + (Number(to.slice(5, 7)) - Number(from.slice(5, 7)));
}

/** The date `months` after an ISO date, on the same day of the month (clamped to the month's end). */
function addMonths(date: IsoDate, months: number): IsoDate {
  const total = Number(date.slice(0, 4)) * 12 + (Number(date.slice(5, 7)) - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(date.slice(8, 10)), lastDay);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The Note's number of monthly payments: first payment through maturity, both included. */
function noteTermMonths(
  loan: LoanFile,
): { note: Note; months: number; first: Located<IsoDate>; maturity: Located<IsoDate> } | undefined {
  for (const note of documentsOf(loan, 'note')) {
    const { firstPaymentDate: first, maturityDate: maturity } = note.fields;
    if (first && maturity) return { note, months: monthsBetween(first.value, maturity.value) + 1, first, maturity };
  }
  return undefined;
}

/**
 * The formula describes a level, fully amortizing payment: an interest-only or balloon loan's first
 * payment is not that, so those are left alone rather than called miscalculated.
 */
function amortizing(cd: ClosingDisclosure | undefined): boolean {
  if (!cd) return true;
  if (cd.fields.balloonPayment?.value === true) return false;
  return !/interest[\s-]*only/i.test(cd.fields.product?.value ?? '');
}

function paymentHit(
  subject: string,
  where: string,
  disclosed: Cents,
  principal: Cents,
  rate: number,
  months: number,
  termSource: string,
  evidence: Evidence[],
): RuleHit[] {
  // The formula's payment to the cent, as a payment is printed: $761.78 for the H-25(B) loan.
  const formula = Math.round(monthlyPayment(principal / 100, rate, months) * 100);
  const difference = Math.abs(disclosed - formula);
  if (difference <= PAYMENT_TOLERANCE) return [];
  return [
    {
      subject,
      summary:
        `${where} discloses monthly principal and interest ${formatMoney(disclosed)}; ` +
        `${formatMoney(principal)} at ${formatRate(rate)} ` +
        `over ${months} months${termSource} amortizes at ${formatMoney(formula)} (difference ` +
        `${formatMoney(difference)} > ` +
        `${formatMoney(PAYMENT_TOLERANCE)}).`,
      evidence,
    },
  ];
}

// NTE-003. The Note's term comes from its first payment and maturity dates, else the CD's Loan Term.
function paymentMiscalculated(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  if (!amortizing(cd)) return [];
  const hits: RuleHit[] = [];

  const payment = noteWith(loan, 'monthlyPayment');
  const principal = noteWith(loan, 'principal');
  const rate = noteWith(loan, 'interestRate');
  const noteTerm = noteTermMonths(loan);
  let months = noteTerm?.months;
  let termSource = '';
  if (months === undefined && cd?.fields.loanTermMonths) {
    months = cd.fields.loanTermMonths.value;
    termSource = ` (the Loan Term of ${cite(cd, cd.fields.loanTermMonths)})`;
  }
  if (payment && principal && rate && months !== undefined && months > 0) {
    const evidence = [
      evidenceOf(payment.note, 'monthly_payment', payment.value, formatMoney(payment.value.value)),
      evidenceOf(principal.note, 'principal', principal.value, formatMoney(principal.value.value)),
      evidenceOf(rate.note, 'interest_rate', rate.value, formatRate(rate.value.value)),
      ...(noteTerm
        ? [
            evidenceOf(noteTerm.note, 'first_payment_date', noteTerm.first, noteTerm.first.value),
            evidenceOf(noteTerm.note, 'maturity_date', noteTerm.maturity, noteTerm.maturity.value),
          ]
        : cd?.fields.loanTermMonths
          ? [evidenceOf(cd, 'loan_term', cd.fields.loanTermMonths, `${cd.fields.loanTermMonths.value} months`)]
          : []),
    ];
    hits.push(
      ...paymentHit(
        'note',
        cite(payment.note, payment.value),
        payment.value.value,
        principal.value.value,
        rate.value.value,
        months,
        termSource,
        evidence,
      ),
    );
  }

  const f = cd?.fields;
  if (
    cd &&
    f?.monthlyPrincipalAndInterest &&
    f.loanAmount &&
    f.interestRate &&
    f.loanTermMonths &&
    f.loanTermMonths.value > 0
  ) {
    hits.push(
      ...paymentHit(
        'closing_disclosure',
        cite(cd, f.monthlyPrincipalAndInterest),
        f.monthlyPrincipalAndInterest.value,
        f.loanAmount.value,
        f.interestRate.value,
        f.loanTermMonths.value,
        '',
        [
          evidenceOf(
            cd,
            'monthly_principal_and_interest',
            f.monthlyPrincipalAndInterest,
            formatMoney(f.monthlyPrincipalAndInterest.value),
          ),
          evidenceOf(cd, 'loan_amount', f.loanAmount, formatMoney(f.loanAmount.value)),
          evidenceOf(cd, 'interest_rate', f.interestRate, formatRate(f.interestRate.value)),
          evidenceOf(cd, 'loan_term', f.loanTermMonths, `${f.loanTermMonths.value} months`),
        ],
      ),
    );
  }
  return hits;
}

// NTE-004. Term: the Note's payments from the first payment date to maturity against the CD's Loan Term
// (by month; the day of the month is the Note's own business). Prepayment penalty: the CD prints only
// whether there is one ("As high as $3,240 ... first 2 years" is not extracted as a term), so the Note's
// penalty years are compared as present or absent.
function termMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  if (!cd) return [];
  const hits: RuleHit[] = [];

  const term = noteTermMonths(loan);
  const cdTerm = cd.fields.loanTermMonths;
  if (term && cdTerm && term.months !== cdTerm.value) {
    const expected = addMonths(term.first.value, cdTerm.value - 1);
    hits.push({
      subject: 'maturity',
      summary:
        `${cite(term.note, term.maturity)} sets maturity ${term.maturity.value}, ${term.months} ` +
        `monthly payments from the first on ` +
        `${term.first.value}; ${cite(cd, cdTerm)} discloses a Loan Term of ${cdTerm.value} months ` +
        `(maturity ${expected}).`,
      evidence: [
        evidenceOf(term.note, 'maturity_date', term.maturity, term.maturity.value),
        evidenceOf(term.note, 'first_payment_date', term.first, term.first.value),
        evidenceOf(cd, 'loan_term', cdTerm, `${cdTerm.value} months`),
      ],
    });
  }

  const penalty = noteWith(loan, 'prepaymentPenaltyYears');
  const cdPenalty = cd.fields.prepaymentPenalty;
  if (penalty && cdPenalty && penalty.value.value > 0 !== cdPenalty.value) {
    const max = cd.fields.prepaymentPenaltyMax;
    hits.push({
      subject: 'prepayment_penalty',
      summary:
        penalty.value.value > 0
          ? `${cite(penalty.note, penalty.value)} provides a prepayment penalty for ` +
            `${penalty.value.value} year${penalty.value.value === 1 ? '' : 's'}; ` +
            `${cite(cd, cdPenalty)} discloses no Prepayment Penalty.`
          : `${cite(penalty.note, penalty.value)} allows prepayment without a penalty; ` +
            `${cite(cd, cdPenalty)} discloses a Prepayment Penalty` +
            `${max ? ` (as high as ${formatMoney(max.value)})` : ''}.`,
      evidence: [
        evidenceOf(penalty.note, 'prepayment_penalty_years', penalty.value, String(penalty.value.value)),
        evidenceOf(cd, 'prepayment_penalty', cdPenalty, cdPenalty.value ? 'yes' : 'no'),
      ],
    });
  }
  return hits;
}

// NTE-005.
function lateChargeMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  if (!cd) return [];
  const hits: RuleHit[] = [];
  const percent = noteWith(loan, 'lateChargePercent');
  const cdPercent = cd.fields.lateChargePercent;
  if (percent && cdPercent && !sameRate(percent.value.value, cdPercent.value)) {
    hits.push({
      subject: 'late_charge_percent',
      summary:
        `${cite(percent.note, percent.value)} sets a late charge of ` +
        `${formatRate(percent.value.value)}; ${cite(cd, cdPercent)} discloses ${formatRate(cdPercent.value)}.`,
      evidence: [
        evidenceOf(percent.note, 'late_charge_percent', percent.value, formatRate(percent.value.value)),
        evidenceOf(cd, 'late_charge_percent', cdPercent, formatRate(cdPercent.value)),
      ],
    });
  }
  const grace = noteWith(loan, 'lateChargeGraceDays');
  const cdGrace = cd.fields.lateChargeGraceDays;
  if (grace && cdGrace && grace.value.value !== cdGrace.value) {
    hits.push({
      subject: 'late_charge_grace_days',
      summary:
        `${cite(grace.note, grace.value)} charges late after ${grace.value.value} days; ` +
        `${cite(cd, cdGrace)} discloses ${cdGrace.value} days.`,
      evidence: [
        evidenceOf(grace.note, 'late_charge_grace_days', grace.value, `${grace.value.value} days`),
        evidenceOf(cd, 'late_charge_grace_days', cdGrace, `${cdGrace.value} days`),
      ],
    });
  }
  return hits;
}

export const rules: Rule[] = [
  { code: 'NTE-001', check: principalMismatch },
  { code: 'NTE-002', check: rateMismatch },
  { code: 'NTE-003', check: paymentMiscalculated },
  { code: 'NTE-004', check: termMismatch },
  { code: 'NTE-005', check: lateChargeMismatch },
];
