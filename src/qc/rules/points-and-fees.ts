// QMF-001 (RULES.md): the final Closing Disclosure's points and fees against the qualified-mortgage limit
// of 12 CFR 1026.43(e)(3) for the loan amount's tier, read from a table of yearly figures by consummation.
import type { Rule, RuleHit } from '../catalog.js';
import type { Cents, IsoDate, LoanFile } from '../fields.js';
import { cite, consummationDate, evidenceOf, finalClosingDisclosure, formatMoney } from './evidence.js';
import { feeEvidence } from './tolerance.js';

/** A tier's limit: a percentage of the loan amount, or a fixed amount. */
export type QmLimit = { percent: number } | { amount: Cents };

export interface QmTier {
  /** The smallest loan amount of the tier (inclusive); the tier runs up to the next higher tier's. */
  from: Cents;
  limit: QmLimit;
}

export interface QmLimitTable {
  /** Loans consummated on or after this date use these figures (the CFPB adjusts them each January). */
  effective: IsoDate;
  /** Highest tier first. */
  tiers: QmTier[];
}

/** 1026.43(e)(3)(i)-(ii) as adjusted for inflation; oldest first. A new year's figures are a new row. */
export const QM_POINTS_AND_FEES_LIMITS: readonly QmLimitTable[] = [
  {
    effective: '2026-01-01',
    tiers: [
      { from: 13_795_800, limit: { percent: 3 } },
      { from: 8_277_500, limit: { amount: 413_900 } },
      { from: 2_759_200, limit: { percent: 5 } },
      { from: 1_724_500, limit: { amount: 138_000 } },
      { from: 0, limit: { percent: 8 } },
    ],
  },
];

/** Origination lines that are the points: "0.25 % of Loan Amount (Points)". */
const POINTS_LINE = /points|% of loan amount/i;

export const rules: Rule[] = [{ code: 'QMF-001', check: (loan) => pointsAndFeesExceeded(loan) }];

/**
 * The figures in force on `date`: the latest table effective on or before it. A date before the first
 * table uses the first (the earliest figures we hold); no date at all uses the latest.
 */
export function qmLimitTable(
  date: IsoDate | undefined,
  tables: readonly QmLimitTable[] = QM_POINTS_AND_FEES_LIMITS,
): QmLimitTable {
  const [earliest] = tables;
  const latest = tables.at(-1);
  if (!earliest || !latest) throw new Error('no QM points and fees table');
  if (date === undefined) return latest;
  return tables.filter((t) => t.effective <= date).at(-1) ?? earliest;
}

export interface QmLimitForLoan {
  /** The most points and fees the loan may carry, in cents (rounded down). */
  limit: Cents;
  /** "loans of $137,958 or more (3%)", "loans below $17,245 (8%)". */
  tier: string;
  table: QmLimitTable;
}

export function qmPointsAndFeesLimit(loanAmount: Cents, date: IsoDate | undefined): QmLimitForLoan {
  const table = qmLimitTable(date);
  const i = table.tiers.findIndex((t) => loanAmount >= t.from);
  const tier = table.tiers[i] ?? table.tiers.at(-1);
  if (!tier) throw new Error(`QM table ${table.effective} has no tiers`);
  const above = table.tiers[i - 1]?.from;
  const range =
    above === undefined
      ? `of ${dollars(tier.from)} or more`
      : tier.from === 0
        ? `below ${dollars(above)}`
        : `of ${dollars(tier.from)} to ${dollars(above)}`;
  const limit = 'percent' in tier.limit ? Math.floor((loanAmount * tier.limit.percent) / 100) : tier.limit.amount;
  const shown = 'percent' in tier.limit ? `${tier.limit.percent}%` : dollars(tier.limit.amount);
  return { limit, tier: `loans ${range} (${shown})`, table };
}

/** "$137,958": the table's figures are whole dollars. */
function dollars(cents: Cents): string {
  return formatMoney(cents).replace(/\.00$/, '');
}

// What counts: every section A (origination) charge, the points being one of those lines; the points
// field is added only when no section A line is the points, so they are not counted twice. Sections B and
// C count only when paid to the creditor or its affiliate, which the form does not say: they are left
// out, as are the exclusions for bona fide discount points, which the form does not show either. The
// loan amount is the CD's Loan Amount (the regulation's "total loan amount" needs the financed fees).
function pointsAndFeesExceeded(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  const amount = cd?.fields.loanAmount;
  if (!cd || !amount) return [];
  const origination = cd.fields.fees.filter((f) => f.section === 'A');
  const points = cd.fields.points;
  if (origination.length === 0 && !points) return [];
  const separatePoints = points && !origination.some((f) => POINTS_LINE.test(f.name)) ? points.value : 0;
  const total = origination.reduce((sum, f) => sum + f.amount, 0) + separatePoints;
  const date = consummationDate(loan)?.value ?? cd.fields.dateIssued?.value;
  const { limit, tier, table } = qmPointsAndFeesLimit(amount.value, date);
  if (total <= limit) return [];
  const page = origination[0]?.page ?? points?.page ?? amount.page;
  const counted =
    separatePoints > 0
      ? `section A origination charges and ${formatMoney(separatePoints)} of points`
      : 'section A origination charges';
  return [
    {
      summary:
        `${cite(cd, { value: total, page })} shows points and fees of ${formatMoney(total)} ` +
        `(${counted}) on a Loan Amount of ` +
        `${formatMoney(amount.value)} (p.${amount.page}); the QM limit for ${tier} is ${formatMoney(limit)} ` +
        `(figures effective ${table.effective}), exceeded by ${formatMoney(total - limit)}.`,
      evidence: [
        evidenceOf(cd, 'loan_amount', amount, formatMoney(amount.value)),
        ...origination.map((f) => feeEvidence(cd, f)),
        ...(separatePoints > 0 && points ? [evidenceOf(cd, 'points', points, formatMoney(points.value))] : []),
      ],
    },
  ];
}
