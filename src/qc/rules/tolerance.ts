// TRD-006..TRD-008: the final Closing Disclosure's fees against the last Loan Estimate's by the tolerance
// buckets of 1026.19(e)(3), and whether the cure the CD discloses covers the excess.
//
// How the three relate: an excess with no cure at all is TRD-006 (each zero-tolerance fee, and a lower
// lender credit) and/or TRD-007 (the 10% bucket); an excess with some cure that falls short, or that the
// CD's "exceeds legal limits by $X" statement understates, is TRD-008 alone. A fully cured excess, like
// the CFPB H-25(F) sample's $200, is no finding.
import type { Rule, RuleHit } from '../catalog.js';
import type { Cents, DocumentOf, FeeLine, LoanFile } from '../fields.js';
import type { Evidence } from '../finding.js';
import {
  cite,
  documentsOf,
  evidenceOf,
  finalClosingDisclosure,
  formatMoney,
  latestIssued,
  listOf,
  pageOf,
} from './evidence.js';

type Bucket = 'zero' | 'ten' | 'none';
type ClosingDisclosure = DocumentOf<'closing_disclosure'>;
type LoanEstimate = DocumentOf<'loan_estimate'>;

/**
 * The Loan Estimate prints whole dollars (1026.37(o)(4)): $30 may stand for $30.49, so a CD amount less
 * than 50 cents above it is no increase.
 */
const LE_ROUNDING: Cents = 50;

/**
 * One name for a fee on both forms. The CD adds the payee ("Appraisal Fee to John Smith Appraisers Inc.")
 * and the LE and CD word three regulated lines differently, so those are named by what they are.
 */
export function feeKey(name: string): string {
  const lower = name.toLowerCase();
  if (/points|% of loan amount/.test(lower)) return 'points';
  if (/recording fee/.test(lower)) return 'recording_fees';
  if (/transfer tax/.test(lower)) return 'transfer_taxes';
  return lower
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+to\s+.*$/, '')
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/ /g, '_');
}

/** A fee line as evidence: `fee.<its name across forms>`, its amount. */
export function feeEvidence(
  doc: DocumentOf<'closing_disclosure' | 'loan_estimate'>,
  fee: { name: string; amount: Cents; page: number; file?: string },
): Evidence {
  return evidenceOf(doc, `fee.${feeKey(fee.name)}`, pageOf(fee.page, fee.file), formatMoney(fee.amount));
}

/**
 * 1026.19(e)(3), as the LE prints the buckets: A (origination) and B (services that cannot be shopped
 * for) and transfer taxes are zero tolerance; recording fees and C (services that can be shopped for) are
 * the 10% bucket; prepaids, escrow, other costs and other government fees have no limit. On the CD a
 * shoppable service moves by the provider chosen (see `review`).
 */
function bucketOf(line: FeeLine): Bucket {
  switch (line.section) {
    case 'A':
    case 'B':
      return 'zero';
    case 'C':
      return 'ten';
    case 'E':
      return /transfer tax/i.test(line.name) ? 'zero' : /recording/i.test(line.name) ? 'ten' : 'none';
    default:
      return 'none';
  }
}

interface Fee {
  key: string;
  section: FeeLine['section'];
  name: string;
  amount: Cents;
  bucket: Bucket;
  page: number;
  file?: string;
}

/** Lines of one form by fee, amounts of repeated names added up. */
function feesOf(lines: readonly FeeLine[]): Map<string, Fee> {
  const fees = new Map<string, Fee>();
  for (const line of lines) {
    const key = feeKey(line.name);
    const seen = fees.get(key);
    if (seen) seen.amount += line.amount;
    else {
      const name = line.name.replace(/\s+to\s+.*$/i, '').trim();
      fees.set(key, {
        key,
        section: line.section,
        name,
        amount: line.amount,
        bucket: bucketOf(line),
        page: line.page,
        ...(line.file ? { file: line.file } : {}),
      });
    }
  }
  return fees;
}

interface ZeroToleranceIncrease {
  subject: string;
  summary: string;
  increase: Cents;
  evidence: Evidence[];
}

interface ToleranceReview {
  le: LoanEstimate;
  cd: ClosingDisclosure;
  increases: ZeroToleranceIncrease[];
  zeroExcess: Cents;
  ten: { leTotal: Cents; cdTotal: Cents; limit: Cents; excess: Cents; page: number; evidence: Evidence[] };
  excess: Cents;
  /** The "exceeds legal limits by" amount printed on the CD (0 when absent). */
  stated: Cents;
  /** Lender credits above the LE's, net of the stated cure, that can only be a cure. */
  creditIncrease: Cents;
  cure: Cents;
}

/** The last Loan Estimate against the final Closing Disclosure; undefined when either has no fee lines. */
function review(loan: LoanFile): ToleranceReview | undefined {
  const le = latestIssued(documentsOf(loan, 'loan_estimate'));
  const cd = finalClosingDisclosure(loan);
  if (!le || !cd || le.fields.fees.length === 0 || cd.fields.fees.length === 0) return undefined;
  const leFees = feesOf(le.fields.fees);
  const cdFees = feesOf(cd.fields.fees);
  // A fee keeps the bucket of the LE line it was estimated on, except that the CD says who provided a
  // shoppable service: in B ("did not shop for") a provider from the creditor's list, 10%; in C ("did
  // shop for") one the borrower found, no limit (1026.38(f)(2)/(3), 1026.19(e)(3)(iii)).
  const bucket = (fee: Fee) => (fee.section === 'C' ? 'none' : (leFees.get(fee.key)?.bucket ?? fee.bucket));

  const increases: ZeroToleranceIncrease[] = [];
  for (const fee of cdFees.values()) {
    if (bucket(fee) !== 'zero') continue;
    const estimated = leFees.get(fee.key);
    const increase = fee.amount - (estimated?.amount ?? 0);
    if (increase < LE_ROUNDING) continue;
    increases.push({
      subject: fee.key,
      increase,
      evidence: [...(estimated ? [feeEvidence(le, estimated)] : []), feeEvidence(cd, fee)],
      summary: estimated
        ? `${fee.name} rose from ${formatMoney(estimated.amount)} on ` +
          `${cite(le, pageOf(estimated.page))} to ${formatMoney(fee.amount)} on ` +
          `${cite(cd, pageOf(fee.page))} (+${formatMoney(increase)}, zero tolerance)`
        : `${fee.name} of ${formatMoney(fee.amount)} on ${cite(cd, pageOf(fee.page))} was not on ` +
          `${cite(le)} (+${formatMoney(increase)}, zero tolerance)`,
    });
  }

  // The H-25 form prints the cure inside the lender credits ("Includes $200 credit for increase in Closing
  // Costs above legal limit"), so the credit compared with the LE's is the CD's less the stated cure.
  const stated = cd.fields.toleranceCure?.value ?? 0;
  const leCredit = le.fields.lenderCredits;
  const cdCredit = cd.fields.lenderCredits;
  let creditIncrease = 0;
  if (leCredit && cdCredit) {
    const net = Math.max(0, cdCredit.value - stated);
    const decrease = leCredit.value - net;
    if (decrease >= LE_ROUNDING) {
      increases.push({
        subject: 'lender_credits',
        increase: decrease,
        evidence: [
          evidenceOf(le, 'lender_credits', leCredit, formatMoney(leCredit.value)),
          evidenceOf(cd, 'lender_credits', cdCredit, formatMoney(cdCredit.value)),
          ...(cd.fields.toleranceCure
            ? [evidenceOf(cd, 'tolerance_cure', cd.fields.toleranceCure, formatMoney(stated))]
            : []),
        ],
        summary:
          `Lender credits fell from ${formatMoney(leCredit.value)} on ${cite(le, leCredit)} to ` +
          `${formatMoney(net)} on ${cite(cd, cdCredit)}` +
          `${stated > 0 ? ' (net of the stated cure)' : ''} (-${formatMoney(decrease)}, zero tolerance)`,
      });
    }
    creditIncrease = Math.max(0, net - leCredit.value);
  }

  // The same services on both sides: what the CD charges in the 10% bucket against what the LE estimated
  // for them (a service not obtained, or taken off the list, leaves the comparison).
  const tenOnCd = [...cdFees.values()].filter((f) => bucket(f) === 'ten');
  const leTotal = tenOnCd.reduce((s, f) => s + (leFees.get(f.key)?.amount ?? 0), 0);
  const cdTotal = tenOnCd.reduce((s, f) => s + f.amount, 0);
  const limit = Math.floor((leTotal * 11) / 10);
  const tenExcess = Math.max(0, cdTotal - limit);

  const zeroExcess = increases.reduce((s, i) => s + i.increase, 0);
  return {
    le,
    cd,
    increases,
    zeroExcess,
    ten: {
      leTotal,
      cdTotal,
      limit,
      excess: tenExcess,
      page: tenOnCd[0]?.page ?? cd.pages[0]?.number ?? 1,
      evidence: tenOnCd.flatMap((f) => {
        const estimated = leFees.get(f.key);
        return [...(estimated ? [feeEvidence(le, estimated)] : []), feeEvidence(cd, f)];
      }),
    },
    excess: zeroExcess + tenExcess,
    stated,
    creditIncrease,
    cure: stated + creditIncrease,
  };
}

// TRD-006: each zero-tolerance increase (and a lower lender credit), when nothing cures the excess.
function zeroToleranceExceeded(loan: LoanFile): RuleHit[] {
  const r = review(loan);
  if (!r || r.excess === 0 || r.cure > 0) return [];
  return r.increases.map((i) => ({
    subject: i.subject,
    summary: `${i.summary}; ${cite(r.cd)} discloses no cure.`,
    evidence: i.evidence,
  }));
}

// TRD-007: the 10% bucket's total over 110% of the LE's, when nothing cures the excess.
function tenPercentExceeded(loan: LoanFile): RuleHit[] {
  const r = review(loan);
  if (!r || r.ten.excess === 0 || r.cure > 0) return [];
  return [
    {
      summary:
        `Recording fees and services from the creditor's list total ${formatMoney(r.ten.cdTotal)} on ` +
        `${cite(r.cd, pageOf(r.ten.page))} against ` +
        `${formatMoney(r.ten.leTotal)} on ${cite(r.le)}, ${formatMoney(r.ten.excess)} above the 110% ` +
        `limit of ${formatMoney(r.ten.limit)}; ` +
        `no cure is disclosed.`,
      evidence: r.ten.evidence,
    },
  ];
}

// TRD-008: some cure, but less than the excess, or a stated "exceeds legal limits" amount below it.
function cureInsufficient(loan: LoanFile): RuleHit[] {
  const r = review(loan);
  if (!r || r.excess === 0 || r.cure === 0 || (r.cure >= r.excess && r.stated >= r.excess)) return [];
  const where = r.cd.fields.toleranceCure ? cite(r.cd, r.cd.fields.toleranceCure) : cite(r.cd);
  const parts = [
    r.stated > 0 ? `"exceeds legal limits by ${formatMoney(r.stated)}"` : undefined,
    r.creditIncrease > 0 ? `a lender credit ${formatMoney(r.creditIncrease)} above the Loan Estimate's` : undefined,
  ].filter((p): p is string => p !== undefined);
  const excess =
    `The fees on ${where} exceed the tolerances of ${cite(r.le)} by ${formatMoney(r.excess)} ` +
    `(zero tolerance ${formatMoney(r.zeroExcess)}, 10% bucket ${formatMoney(r.ten.excess)})`;
  return [
    {
      summary:
        r.cure < r.excess
          ? `${excess}; the cure disclosed, ${listOf(parts)}, is ${formatMoney(r.excess - r.cure)} short.`
          : `${excess}; a lender credit covers it, but the Closing Disclosure states the excess as ` +
            `${r.stated > 0 ? formatMoney(r.stated) : 'nothing'} rather than ${formatMoney(r.excess)}.`,
      evidence: [
        ...(r.cd.fields.toleranceCure
          ? [evidenceOf(r.cd, 'tolerance_cure', r.cd.fields.toleranceCure, formatMoney(r.stated))]
          : []),
        ...r.increases.flatMap((i) => i.evidence),
        ...(r.ten.excess > 0 ? r.ten.evidence : []),
      ],
    },
  ];
}

export const rules: Rule[] = [
  { code: 'TRD-006', check: zeroToleranceExceeded },
  { code: 'TRD-007', check: tenPercentExceeded },
  { code: 'TRD-008', check: cureInsufficient },
];
