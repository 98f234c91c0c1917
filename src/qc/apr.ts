// Regulation Z Appendix J: the actuarial APR. The amount financed equals the present value of the
// payments, each discounted over its time from the start of the term, measured in whole unit periods t
// plus a fraction f of a period: A = Σ P_k / ((1 + f_k·i)(1 + i)^t_k). Solved for the rate per unit
// period i; APR = i × unit periods per year. Also the closed forms the rules check against.

export interface ScheduledPayment {
  amount: number;
  /** Whole unit periods from the start of the term to this payment. */
  periods: number;
  /** Fraction of a unit period beyond the whole ones (Appendix J(b)(5)). */
  fraction?: number;
}

export interface AprInput {
  /** The amount financed (one advance at the start of the term). */
  amountFinanced: number;
  payments: readonly ScheduledPayment[];
  /** 12 for monthly unit periods; 365 / term-in-days for a single-payment loan (Appendix J(b)(5)(iv)). */
  periodsPerYear: number;
}

/**
 * Present value of the payments at a rate per unit period, and its derivative with respect to the rate.
 * A payment one period after the one before it is discounted by one more factor of 1/(1 + i), a
 * multiplication, rather than by a power of its own: the solver values a schedule of 360 payments at each
 * of its steps, and the APR rule solves dozens of schedules per Closing Disclosure.
 */
function presentValue(payments: readonly ScheduledPayment[], i: number): { pv: number; slope: number } {
  const step = 1 / (1 + i);
  let pv = 0;
  let slope = 0;
  let periods = NaN;
  let discount = 0;
  for (const p of payments) {
    discount = p.periods === periods + 1 ? discount * step : (1 + i) ** -p.periods;
    periods = p.periods;
    const f = p.fraction ?? 0;
    const v = (p.amount * discount) / (1 + f * i);
    pv += v;
    // d/di of A / ((1 + f·i)(1 + i)^t) = −A/(…) · (f/(1 + f·i) + t/(1 + i))
    slope -= v * (f / (1 + f * i) + p.periods * step);
  }
  return { pv, slope };
}

/**
 * The annual percentage rate as a decimal (0.0969 for 9.69%), to within 1e-10. The present value falls
 * strictly as the rate rises, so a rate that values the payments above the amount financed and one that
 * values them below bracket the answer; Newton's steps find it in a handful of valuations.
 * (Bisection to 1e-14 took some 50 valuations, and the APR rule solves dozens of schedules of 360 payments
 * per Closing Disclosure.)
 */
export function actuarialApr(input: AprInput): number {
  const total = input.payments.reduce((s, p) => s + p.amount, 0);
  if (!(input.amountFinanced > 0) || input.payments.length === 0)
    throw new RangeError('an APR needs an amount financed and payments');
  if (total < input.amountFinanced) throw new RangeError('the payments do not repay the amount financed');
  const excess = (i: number) => {
    const { pv, slope } = presentValue(input.payments, i);
    return { value: pv - input.amountFinanced, slope };
  };
  // The value falls and bends upward as the rate rises (convex), so Newton's steps from a rate below the
  // answer stay below it and climb to it; the bracket guards against rounding, and bisection takes over
  // should a step fail to move inside it.
  let low = 0;
  let high = 1;
  while (excess(high).value > 0) high *= 2;
  let i = 0;
  for (let n = 0; n < 200 && high - low > 1e-14; n++) {
    const { value, slope } = excess(i);
    if (value === 0) return i * input.periodsPerYear;
    if (value > 0) low = i;
    else high = i;
    const step = slope < 0 ? i - value / slope : NaN;
    if (Math.abs(step - i) <= 1e-16 * Math.max(1, i)) return step * input.periodsPerYear;
    i = step > low && step < high ? step : (low + high) / 2;
  }
  return i * input.periodsPerYear;
}

/** `count` equal monthly payments, the first after `firstPeriods` whole months (and `fraction` of one). */
export function monthlyPayments(
  amount: number,
  count: number,
  o: { firstPeriods?: number; fraction?: number } = {},
): ScheduledPayment[] {
  const first = o.firstPeriods ?? 1;
  return Array.from({ length: count }, (_, k) => ({ amount, periods: first + k, fraction: o.fraction ?? 0 }));
}

/** Monthly principal and interest: M = P·r / (1 − (1 + r)^−n), r = annual rate / 12 (RULES.md). */
export function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return principal / months;
  return (principal * r) / (1 - (1 + r) ** -months);
}

/** Total Interest Percentage: (scheduled interest + prepaid interest) / loan amount (RULES.md). */
export function totalInterestPercentage(o: {
  loanAmount: number;
  scheduledInterest: number;
  prepaidInterest: number;
}): number {
  return (o.scheduledInterest + o.prepaidInterest) / o.loanAmount;
}

/** Rounds a decimal rate to hundredths of a percent, as disclosures print it: 0.096912 → 9.69. */
export function asPercent(rate: number, decimals = 2): number {
  const f = 10 ** decimals;
  return Math.round(rate * 100 * f) / f;
}

export interface Amortization {
  /** Each month's principal and interest in dollars; the last one pays off what rounding left. */
  payments: number[];
  totalInterest: number;
}

/**
 * The monthly schedule of a fixed-rate loan as a servicer runs it: interest rounded to the cent each
 * month, the disclosed payment every month but the last, which pays the balance off exactly.
 */
export function amortize(principal: number, annualRate: number, months: number, payment: number): Amortization {
  let balance = Math.round(principal * 100);
  const pay = Math.round(payment * 100);
  let interest = 0;
  const payments: number[] = [];
  for (let k = 1; k <= months && balance > 0; k++) {
    const due = Math.round((balance * annualRate) / 12);
    interest += due;
    const paid = k === months || balance + due < pay ? balance + due : pay;
    balance += due - paid;
    payments.push(paid / 100);
  }
  return { payments, totalInterest: interest / 100 };
}

export interface DisclosedLoan {
  loanAmount: number;
  annualRate: number;
  months: number;
  monthlyPrincipalAndInterest: number;
  /** The monthly mortgage insurance of the first payments, 0 when there is none. */
  monthlyMortgageInsurance: number;
  financeCharge: number;
  amountFinanced: number;
}

/**
 * The APR of a Closing Disclosure recomputed from its own figures. The CD does not print how long
 * mortgage insurance is paid, so the months are inferred from what the finance charge leaves after the
 * scheduled interest (RULES.md: the result is then approximate).
 */
export function closingDisclosureApr(loan: DisclosedLoan): {
  apr: number;
  mortgageInsuranceMonths: number;
  approximate: boolean;
} {
  const { payments } = amortize(loan.loanAmount, loan.annualRate, loan.months, loan.monthlyPrincipalAndInterest);
  const principalAndInterest = payments.reduce((s, p) => s + p, 0);
  const mi = loan.monthlyMortgageInsurance;
  const miMonths =
    mi > 0
      ? Math.min(
          payments.length,
          Math.max(0, Math.round((loan.financeCharge + loan.amountFinanced - principalAndInterest) / mi)),
        )
      : 0;
  const schedule = payments.map((p, k) => ({ amount: p + (k < miMonths ? mi : 0), periods: k + 1 }));
  return {
    apr: actuarialApr({ amountFinanced: loan.amountFinanced, payments: schedule, periodsPerYear: 12 }),
    mortgageInsuranceMonths: miMonths,
    approximate: mi > 0,
  };
}
