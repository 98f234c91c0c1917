// APR-001..APR-006: the final Closing Disclosure's Loan Calculations (APR, Finance Charge, Total of
// Payments, TIP, Amount Financed) recomputed from its own loan terms and judged by Regulation Z's tolerances.
//
// The CD does not print how many months mortgage insurance is paid (RULES.md: inferred, approximate). Each
// disclosed figure implies a number of months (the Finance Charge with the Amount Financed, the Total of
// Payments, the APR), so each figure is checked against the months the *other* figures imply, read in
// the disclosure's favour: a figure is only called wrong when no reading of the others excuses it. Where
// the other figures contradict each other the culprit is unknown and the check stands aside. Without
// mortgage insurance nothing is inferred and the checks are exact.
import { actuarialApr, amortize } from '../apr.js';
import type { Rule, RuleHit } from '../catalog.js';
import type { Cents, DocumentOf, LoanFile, Rate } from '../fields.js';
import type { Evidence } from '../finding.js';
import { cite, evidenceOf, finalClosingDisclosure, formatMoney, formatRate } from './evidence.js';

type ClosingDisclosure = DocumentOf<'closing_disclosure'>;

/** 1026.22(a)(2)/(3): 0.125 percentage point for regular transactions, 0.25 for irregular ones. */
export const APR_TOLERANCE = { regular: 0.00125, irregular: 0.0025 } as const;
/** 1026.18(d)(1), 1026.38(o)(1)/(2): accurate if understated by no more than $100 (overstated by any amount). */
const UNDERSTATEMENT_TOLERANCE: Cents = 100_00;
/** RULES.md APR-005. */
const AMOUNT_FINANCED_TOLERANCE: Cents = 100_00;
/** RULES.md APR-004: 0.01 percentage point. */
const TIP_TOLERANCE: Rate = 0.0001;
/** Rates compared after printing-precision rounding still differ in the last binary digits. */
const EPSILON = 1e-9;
/**
 * How close a recomputed APR must come to the disclosed one for the disclosed APR to vouch for the
 * figures it was computed from: 0.002 percentage point, half a month of typical mortgage insurance, a
 * few printing roundings. It only ever silences a finding another rule of the family already makes.
 */
const APR_CONFIRMS = 0.00002;

/**
 * Irregular (1026.22(a)(3)): multiple advances, i.e. construction loans. Mortgage insurance that ends
 * mid-term is deliberately not treated as an irregular payment amount: the P&I schedule stays level, and
 * the H-25(B) sample (80 months of MI) is held to 0.125 so that an APR 0.2 point off in it is found.
 */
export function isIrregular(cd: ClosingDisclosure): boolean {
  return /construction/i.test(`${cd.fields.purpose?.value ?? ''} ${cd.fields.product?.value ?? ''}`);
}

export function aprTolerance(cd: ClosingDisclosure): Rate {
  return isIrregular(cd) ? APR_TOLERANCE.irregular : APR_TOLERANCE.regular;
}

/** 0.002 → "0.200", 0.00125 → "0.125": percentage points as the summaries print them. */
function points(rate: Rate, decimals = 3): string {
  return (rate * 100).toFixed(decimals);
}

const cents = (dollars: number): Cents => Math.round(dollars * 100);

/** The level-payment schedule the CD's loan terms describe, in dollars. */
interface Schedule {
  cd: ClosingDisclosure;
  loanAmount: number;
  /** Each month's principal and interest (the last one pays off what cent rounding left). */
  payments: number[];
  totalPrincipalAndInterest: number;
  scheduledInterest: number;
}

/**
 * Only a fixed-rate, fully amortizing product can be rebuilt from page 1 of the CD: an adjustable,
 * step, interest-only or balloon loan's later payments are not printed, so those are skipped, not judged.
 */
function modelled(cd: ClosingDisclosure): boolean {
  const product = cd.fields.product?.value;
  if (product === undefined || !/fixed/i.test(product)) return false;
  if (/adjustable|\barm\b|step|interest[\s-]*only|balloon|negative/i.test(product)) return false;
  return cd.fields.balloonPayment?.value !== true;
}

function scheduleOf(cd: ClosingDisclosure): Schedule | undefined {
  const { loanAmount, interestRate, loanTermMonths, monthlyPrincipalAndInterest } = cd.fields;
  if (!loanAmount || !interestRate || !loanTermMonths || !monthlyPrincipalAndInterest || !modelled(cd))
    return undefined;
  if (!(loanAmount.value > 0 && loanTermMonths.value > 0 && monthlyPrincipalAndInterest.value > 0)) return undefined;
  // 40 years is the longest mortgage term written; a longer one is a misread, not a schedule to build.
  if (loanTermMonths.value > 480) return undefined;
  const amount = loanAmount.value / 100;
  const { payments, totalInterest } = amortize(
    amount,
    interestRate.value,
    loanTermMonths.value,
    monthlyPrincipalAndInterest.value / 100,
  );
  const total = payments.reduce((s, p) => s + p, 0);
  return { cd, loanAmount: amount, payments, totalPrincipalAndInterest: total, scheduledInterest: totalInterest };
}

/** Monthly mortgage insurance in dollars; undefined when not extracted (0 is "—", no insurance). */
function monthlyMi(cd: ClosingDisclosure): number | undefined {
  const mi = cd.fields.mortgageInsurance;
  return mi === undefined ? undefined : mi.value / 100;
}

function clampMonths(s: Schedule, months: number): number {
  return Math.min(s.payments.length, Math.max(0, months));
}

/** The APR of the P&I schedule plus `months` of mortgage insurance (a fractional last month allowed). */
function aprWith(s: Schedule, mi: number, months: number, amountFinanced: number): number | undefined {
  const whole = Math.floor(months);
  const schedule = s.payments.map((p, k) => ({
    amount: p + (k < whole ? mi : k === whole ? mi * (months - whole) : 0),
    periods: k + 1,
  }));
  const total = schedule.reduce((sum, p) => sum + p.amount, 0);
  if (!(amountFinanced > 0) || total < amountFinanced) return undefined;
  return actuarialApr({ amountFinanced, payments: schedule, periodsPerYear: 12 });
}

/** Printed precision of an APR: thousandths of a percent. */
const asPrinted = (apr: Rate) => Math.round(apr * 100_000) / 100_000;

// What each disclosed figure says about the months of mortgage insurance (undefined when it cannot say).

/** Finance Charge + Amount Financed = every scheduled payment (P&I + MI). */
function monthsFromFinanceCharge(s: Schedule, mi: number): number | undefined {
  const { financeCharge, amountFinanced } = s.cd.fields;
  if (!financeCharge || !amountFinanced) return undefined;
  return clampMonths(s, (financeCharge.value / 100 + amountFinanced.value / 100 - s.totalPrincipalAndInterest) / mi);
}

/**
 * Total of Payments = P&I + MI + Loan Costs (D), with or without the prepaid interest: the H-25(B) sample
 * includes it ("interest" in 1026.38(o)(1)), RULES.md's formula does not. Both readings are returned.
 */
function monthsFromTotalOfPayments(s: Schedule, mi: number): number[] {
  const { totalOfPayments, totalLoanCosts, prepaidInterest } = s.cd.fields;
  if (!totalOfPayments || !totalLoanCosts) return [];
  const insurance = totalOfPayments.value / 100 - s.totalPrincipalAndInterest - totalLoanCosts.value / 100;
  const readings = [insurance / mi];
  if (prepaidInterest) readings.push((insurance - prepaidInterest.value / 100) / mi);
  return readings.map((m) => clampMonths(s, m));
}

/** The months at which the schedule's APR equals the disclosed one (the APR rises with every MI month). */
function monthsFromApr(s: Schedule, mi: number): number | undefined {
  const { apr, amountFinanced } = s.cd.fields;
  if (!apr || !amountFinanced) return undefined;
  const af = amountFinanced.value / 100;
  const at = (m: number) => aprWith(s, mi, m, af);
  const low = at(0);
  const high = at(s.payments.length);
  if (low === undefined || high === undefined) return undefined;
  if (apr.value <= low) return 0;
  if (apr.value >= high) return s.payments.length;
  let lo = 0;
  let hi = s.payments.length;
  for (let n = 0; n < 40; n++) {
    const mid = (lo + hi) / 2;
    if ((at(mid) ?? Infinity) < apr.value) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const defined = (xs: readonly (number | undefined)[]): number[] => xs.filter((x): x is number => x !== undefined);

/** The smallest of the witnesses' months (the reading most favourable to a figure that may be understated). */
function fewestMonths(mi: number, witnesses: readonly (number | undefined)[]): number | undefined {
  if (mi === 0) return 0;
  const known = defined(witnesses);
  return known.length === 0 ? undefined : Math.min(...known);
}

/** The disclosed APR is what the Amount Financed and `months` of mortgage insurance give. */
function aprConfirms(s: Schedule, mi: number, months: number): boolean {
  const { apr, amountFinanced } = s.cd.fields;
  if (!apr || !amountFinanced) return false;
  const recomputed = aprWith(s, mi, months, amountFinanced.value / 100);
  return recomputed !== undefined && Math.abs(asPrinted(recomputed) - apr.value) <= APR_CONFIRMS + EPSILON;
}

/** The second sentence of a summary whose recomputation assumed some months of mortgage insurance. */
function miAssumption(mi: number, months: number): string {
  if (mi === 0) return '';
  return (
    ` Mortgage insurance of ${formatMoney(cents(mi))} a month is assumed for about ` +
    `${Math.round(months)} months, inferred from the other disclosed figures (approximate).`
  );
}

interface FinanceChargeCheck {
  disclosed: Cents;
  recomputed: Cents;
  /** Recomputed less disclosed: positive when the disclosure is understated. */
  understatedBy: Cents;
  mi: number;
  months: number;
}

/** Finance Charge = scheduled payments (P&I + MI) − Amount Financed, MI months from the TOP and the APR. */
function financeChargeCheck(s: Schedule): FinanceChargeCheck | undefined {
  const { financeCharge, amountFinanced } = s.cd.fields;
  const mi = monthlyMi(s.cd);
  if (!financeCharge || !amountFinanced || mi === undefined) return undefined;
  const months = fewestMonths(mi, [...monthsFromTotalOfPayments(s, mi), monthsFromApr(s, mi)]);
  if (months === undefined) return undefined;
  const recomputed = cents(s.totalPrincipalAndInterest + mi * months) - amountFinanced.value;
  return { disclosed: financeCharge.value, recomputed, understatedBy: recomputed - financeCharge.value, mi, months };
}

/** The loan terms a schedule is rebuilt from, as evidence beside the figure a finding judges. */
function scheduleEvidence({ cd }: Schedule): Evidence[] {
  const { loanAmount, interestRate, loanTermMonths, monthlyPrincipalAndInterest, mortgageInsurance } = cd.fields;
  return [
    ...(loanAmount ? [evidenceOf(cd, 'loan_amount', loanAmount, formatMoney(loanAmount.value))] : []),
    ...(interestRate ? [evidenceOf(cd, 'interest_rate', interestRate, formatRate(interestRate.value))] : []),
    ...(loanTermMonths ? [evidenceOf(cd, 'loan_term', loanTermMonths, `${loanTermMonths.value} months`)] : []),
    ...(monthlyPrincipalAndInterest
      ? [
          evidenceOf(
            cd,
            'monthly_principal_and_interest',
            monthlyPrincipalAndInterest,
            formatMoney(monthlyPrincipalAndInterest.value),
          ),
        ]
      : []),
    ...(mortgageInsurance && mortgageInsurance.value > 0
      ? [evidenceOf(cd, 'mortgage_insurance', mortgageInsurance, formatMoney(mortgageInsurance.value))]
      : []),
  ];
}

const finalSchedule = (loan: LoanFile): Schedule | undefined => {
  const cd = finalClosingDisclosure(loan);
  return cd && scheduleOf(cd);
};

// APR-001. The recomputed APR uses the months the Finance Charge and the Total of Payments imply, moved
// as close to the disclosed APR as their range allows. 1026.22(a)(4): the APR is still accurate when it
// results from a disclosed finance charge that is itself accurate (not understated beyond $100).
function aprOutsideTolerance(loan: LoanFile): RuleHit[] {
  const s = finalSchedule(loan);
  if (!s) return [];
  const { apr, amountFinanced } = s.cd.fields;
  const mi = monthlyMi(s.cd);
  if (!apr || !amountFinanced || mi === undefined) return [];
  const af = amountFinanced.value / 100;

  let months = 0;
  if (mi > 0) {
    const range = defined([monthsFromFinanceCharge(s, mi), ...monthsFromTotalOfPayments(s, mi)]);
    if (range.length === 0) return [];
    const closest = monthsFromApr(s, mi) ?? 0;
    months = Math.min(Math.max(closest, Math.min(...range)), Math.max(...range));
  }
  const recomputed = aprWith(s, mi, months, af);
  if (recomputed === undefined) return [];
  const difference = apr.value - asPrinted(recomputed);
  const tolerance = aprTolerance(s.cd);
  if (Math.abs(difference) <= tolerance + EPSILON) return [];
  if (financeChargeException(s, mi, months, apr.value, tolerance)) return [];

  const kind = tolerance === APR_TOLERANCE.irregular ? 'irregular-transaction tolerance' : 'tolerance';
  return [
    {
      summary:
        `${cite(s.cd, apr)} discloses APR ${formatRate(apr.value)}; recomputed APR is ${formatRate(recomputed)} ` +
        `(difference ${points(Math.abs(difference))} > ${Number(points(tolerance))} ` +
        `${kind}).${miAssumption(mi, months)}`,
      evidence: [
        evidenceOf(s.cd, 'apr', apr, formatRate(apr.value)),
        evidenceOf(s.cd, 'amount_financed', amountFinanced, formatMoney(amountFinanced.value)),
        ...scheduleEvidence(s),
      ],
      ...(tolerance === APR_TOLERANCE.irregular ? { regulation: '12 CFR 1026.22(a)(3)' } : {}),
    },
  ];
}

/** 1026.22(a)(4): an accurate finance charge, and the disclosed APR within tolerance of the APR it yields. */
function financeChargeException(s: Schedule, mi: number, months: number, disclosedApr: Rate, tolerance: Rate): boolean {
  const check = financeChargeCheck(s);
  const financeCharge = s.cd.fields.financeCharge;
  if (!check || !financeCharge || check.understatedBy > UNDERSTATEMENT_TOLERANCE) return false;
  // The APR the disclosed finance charge yields: the same payments, the amount financed they leave.
  const fromFinanceCharge = aprWith(
    s,
    mi,
    months,
    s.totalPrincipalAndInterest + mi * months - financeCharge.value / 100,
  );
  return (
    fromFinanceCharge !== undefined && Math.abs(disclosedApr - asPrinted(fromFinanceCharge)) <= tolerance + EPSILON
  );
}

// APR-002.
function financeChargeUnderstated(loan: LoanFile): RuleHit[] {
  const s = finalSchedule(loan);
  const check = s && financeChargeCheck(s);
  const { financeCharge, amountFinanced } = s?.cd.fields ?? {};
  if (!s || !check || !financeCharge || !amountFinanced || check.understatedBy <= UNDERSTATEMENT_TOLERANCE) return [];
  return [
    {
      summary:
        `${cite(s.cd, financeCharge)} discloses Finance Charge ${formatMoney(check.disclosed)}; its ` +
        `scheduled payments less the ` +
        `Amount Financed ${formatMoney(amountFinanced.value)} give ${formatMoney(check.recomputed)} ` +
        `(understated by ${formatMoney(check.understatedBy)} > ` +
        `${formatMoney(UNDERSTATEMENT_TOLERANCE)} tolerance).${miAssumption(check.mi, check.months)}`,
      evidence: [
        evidenceOf(s.cd, 'finance_charge', financeCharge, formatMoney(check.disclosed)),
        evidenceOf(s.cd, 'amount_financed', amountFinanced, formatMoney(amountFinanced.value)),
        ...scheduleEvidence(s),
      ],
    },
  ];
}

// APR-003. Recomputed without the prepaid interest (RULES.md's formula), the lower of the two readings.
// Both witnesses (Finance Charge and APR) lean on the Amount Financed; when they disagree it is the
// Amount Financed that is suspect (APR-005), not the Total of Payments, and this check stands aside.
function totalOfPaymentsUnderstated(loan: LoanFile): RuleHit[] {
  const s = finalSchedule(loan);
  if (!s) return [];
  const { totalOfPayments, totalLoanCosts, apr } = s.cd.fields;
  const mi = monthlyMi(s.cd);
  if (!totalOfPayments || !totalLoanCosts || mi === undefined) return [];
  const fromFinanceCharge = mi > 0 ? monthsFromFinanceCharge(s, mi) : 0;
  if (mi > 0 && apr && fromFinanceCharge !== undefined && !aprConfirms(s, mi, fromFinanceCharge)) return [];
  const months = fewestMonths(mi, [fromFinanceCharge, monthsFromApr(s, mi)]);
  if (months === undefined) return [];
  const principalAndInterest = cents(s.totalPrincipalAndInterest);
  const insurance = cents(mi * months);
  const recomputed = principalAndInterest + insurance + totalLoanCosts.value;
  const understatedBy = recomputed - totalOfPayments.value;
  if (understatedBy <= UNDERSTATEMENT_TOLERANCE) return [];
  return [
    {
      summary:
        `${cite(s.cd, totalOfPayments)} discloses Total of Payments ` +
        `${formatMoney(totalOfPayments.value)}; principal and interest ` +
        `${formatMoney(principalAndInterest)}, mortgage insurance ${formatMoney(insurance)} and Loan ` +
        `Costs (D) ${formatMoney(totalLoanCosts.value)} ` +
        `(p.${totalLoanCosts.page}) add up to ${formatMoney(recomputed)} (understated by ` +
        `${formatMoney(understatedBy)} > ` +
        `${formatMoney(UNDERSTATEMENT_TOLERANCE)} tolerance).${miAssumption(mi, months)}`,
      evidence: [
        evidenceOf(s.cd, 'total_of_payments', totalOfPayments, formatMoney(totalOfPayments.value)),
        evidenceOf(s.cd, 'total_loan_costs', totalLoanCosts, formatMoney(totalLoanCosts.value)),
        ...scheduleEvidence(s),
      ],
    },
  ];
}

// APR-004. TIP = (scheduled interest + prepaid interest) / loan amount; the disclosed TIP is printed to
// hundredths of a percent, so the recomputed one is rounded the same way before comparing.
function tipInaccurate(loan: LoanFile): RuleHit[] {
  const s = finalSchedule(loan);
  if (!s) return [];
  const { tip, prepaidInterest } = s.cd.fields;
  if (!tip || !prepaidInterest) return [];
  const prepaid = prepaidInterest.value / 100;
  const recomputed = Math.round(((s.scheduledInterest + prepaid) / s.loanAmount) * 10_000) / 10_000;
  const difference = Math.abs(tip.value - recomputed);
  if (difference <= TIP_TOLERANCE + EPSILON) return [];
  return [
    {
      summary:
        `${cite(s.cd, tip)} discloses TIP ${formatRate(tip.value, 2)}; scheduled interest ` +
        `${formatMoney(cents(s.scheduledInterest))} plus ` +
        `prepaid interest ${formatMoney(prepaidInterest.value)} (p.${prepaidInterest.page}) over the ` +
        `Loan Amount ${formatMoney(cents(s.loanAmount))} ` +
        `is ${formatRate(recomputed, 2)} (difference ${points(difference, 2)} > ` +
        `${points(TIP_TOLERANCE, 2)} percentage point).`,
      evidence: [
        evidenceOf(s.cd, 'tip', tip, formatRate(tip.value, 2)),
        evidenceOf(s.cd, 'prepaid_interest', prepaidInterest, formatMoney(prepaidInterest.value)),
        ...scheduleEvidence(s),
      ],
    },
  ];
}

// APR-005. The prepaid finance charges are what the Finance Charge holds beyond the scheduled interest
// and mortgage insurance; the Amount Financed must be the Loan Amount less them, i.e. Amount Financed +
// Finance Charge = every scheduled payment. Fee lines are not used: the CFPB's own H-25(B) sample
// discloses an Amount Financed equal to the Loan Amount beside $405 of points, and a catalog rule must not
// call the regulator's model form wrong. The mortgage insurance total comes from the Total of Payments
// (the only figure independent of the Amount Financed). When the disclosed APR shows that the Amount
// Financed is right and the Finance Charge or the Total of Payments is the odd one out, APR-002 or APR-003
// reports it and this rule stays silent: one defect, one finding.
function amountFinancedInconsistent(loan: LoanFile): RuleHit[] {
  const s = finalSchedule(loan);
  if (!s) return [];
  const { amountFinanced, financeCharge, loanAmount, interestRate, prepaidInterest } = s.cd.fields;
  if (amountFinanced && loanAmount && amountFinanced.value - loanAmount.value > AMOUNT_FINANCED_TOLERANCE) {
    // Prepaid finance charges only ever reduce the Loan Amount: more than it financed is wrong whatever the rest.
    return [
      {
        summary:
          `${cite(s.cd, amountFinanced)} discloses Amount Financed ` +
          `${formatMoney(amountFinanced.value)}, more than its Loan Amount ` +
          `${formatMoney(loanAmount.value)} (p.${loanAmount.page}), which prepaid finance charges ` +
          `can only reduce (difference ` +
          `${formatMoney(amountFinanced.value - loanAmount.value)} > ` +
          `${formatMoney(AMOUNT_FINANCED_TOLERANCE)} tolerance).`,
        evidence: [
          evidenceOf(s.cd, 'amount_financed', amountFinanced, formatMoney(amountFinanced.value)),
          evidenceOf(s.cd, 'loan_amount', loanAmount, formatMoney(loanAmount.value)),
        ],
      },
    ];
  }
  const mi = monthlyMi(s.cd);
  if (!amountFinanced || !financeCharge || !loanAmount || mi === undefined) return [];

  // Expected Amount Financed = P&I + MI − Finance Charge, over the plausible MI totals.
  let readings = [0];
  let insurance: [number, number] = [0, 0];
  if (mi > 0) {
    readings = monthsFromTotalOfPayments(s, mi);
    if (readings.length === 0) return [];
    // Without the prepaid interest extracted, allow up to a month's interest for it.
    const allowance = prepaidInterest || !interestRate ? 0 : (s.loanAmount * interestRate.value) / 12;
    insurance = [Math.max(0, Math.min(...readings) * mi - allowance), Math.max(...readings) * mi];
  }
  const expected = insurance.map((i) => cents(s.totalPrincipalAndInterest + i) - financeCharge.value);
  const low = Math.min(...expected);
  const high = Math.max(...expected);
  const nearest = amountFinanced.value < low ? low : Math.min(amountFinanced.value, high);
  const difference = Math.abs(amountFinanced.value - nearest);
  if (difference <= AMOUNT_FINANCED_TOLERANCE) return [];

  const financeChargeAlone = readings.some((m) => aprConfirms(s, mi, m));
  const fromFinanceCharge = mi > 0 ? monthsFromFinanceCharge(s, mi) : undefined;
  const totalOfPaymentsAlone = fromFinanceCharge !== undefined && aprConfirms(s, mi, fromFinanceCharge);
  if (financeChargeAlone || totalOfPaymentsAlone) return [];
  return [
    {
      summary:
        `${cite(s.cd, amountFinanced)} discloses Amount Financed ` +
        `${formatMoney(amountFinanced.value)}; its scheduled payments less its ` +
        `Finance Charge ${formatMoney(financeCharge.value)} put it at ${formatMoney(nearest)}` +
        (nearest <= loanAmount.value
          ? `, the Loan Amount ${formatMoney(loanAmount.value)} less prepaid finance charges of ` +
            `${formatMoney(loanAmount.value - nearest)}`
          : '') +
        ` (difference ${formatMoney(difference)} > ` +
        `${formatMoney(AMOUNT_FINANCED_TOLERANCE)} ` +
        'tolerance).' +
        (mi > 0 ? miAssumption(mi, (low === nearest ? Math.min(...insurance) : Math.max(...insurance)) / mi) : ''),
      evidence: [
        evidenceOf(s.cd, 'amount_financed', amountFinanced, formatMoney(amountFinanced.value)),
        evidenceOf(s.cd, 'finance_charge', financeCharge, formatMoney(financeCharge.value)),
        ...scheduleEvidence(s),
      ],
    },
  ];
}

// APR-006. The final CD only: the one whose APR the consumer was bound to; a missing APR is the defect
// itself (RULES.md), so this rule, alone in the family, fires on an absent value. An APR below the note
// rate is only possible when something other than interest has been left out of the finance charge.
function aprMissingOrBelowRate(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  if (!cd) return [];
  const { apr, interestRate, financeCharge, points: loanPoints, mortgageInsurance, prepaidInterest } = cd.fields;
  if (!apr) {
    return [
      {
        summary: `${cite(cd)} discloses no Annual Percentage Rate (APR) in its Loan Calculations.`,
        evidence: [evidenceOf(cd, 'apr', undefined, null)],
      },
    ];
  }
  if (!interestRate || apr.value >= interestRate.value - EPSILON) return [];
  const charges = [
    financeCharge && financeCharge.value > 0 ? `a Finance Charge of ${formatMoney(financeCharge.value)}` : undefined,
    loanPoints && loanPoints.value > 0 ? `points of ${formatMoney(loanPoints.value)}` : undefined,
    mortgageInsurance && mortgageInsurance.value > 0
      ? `mortgage insurance of ${formatMoney(mortgageInsurance.value)} a month`
      : undefined,
    prepaidInterest && prepaidInterest.value > 0
      ? `prepaid interest of ${formatMoney(prepaidInterest.value)}`
      : undefined,
  ].filter((c): c is string => c !== undefined);
  if (charges.length === 0) return [];
  return [
    {
      summary:
        `${cite(cd, apr)} discloses APR ${formatRate(apr.value)}, below its Interest Rate ` +
        `${formatRate(interestRate.value)} ` +
        `(p.${interestRate.page}), although it discloses ${charges[0]}.`,
      evidence: [
        evidenceOf(cd, 'apr', apr, formatRate(apr.value)),
        evidenceOf(cd, 'interest_rate', interestRate, formatRate(interestRate.value)),
      ],
    },
  ];
}

export const rules: Rule[] = [
  { code: 'APR-001', check: aprOutsideTolerance },
  { code: 'APR-002', check: financeChargeUnderstated },
  { code: 'APR-003', check: totalOfPaymentsUnderstated },
  { code: 'APR-004', check: tipInaccurate },
  { code: 'APR-005', check: amountFinancedInconsistent },
  { code: 'APR-006', check: aprMissingOrBelowRate },
];
