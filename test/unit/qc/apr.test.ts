// The Appendix J actuarial APR and the closed forms of RULES.md: the six worked examples of Appendix
// J(c) to the hundredth, and the H-25(B) sample Closing Disclosure's APR (4.174%) from its own figures.
import test from 'ava';
import {
  actuarialApr,
  amortize,
  asPercent,
  closingDisclosureApr,
  monthlyPayment,
  monthlyPayments,
  totalInterestPercentage,
} from '../../../src/qc/apr.js';

const monthlyApr = (amountFinanced: number, payments: ReturnType<typeof monthlyPayments>) =>
  asPercent(actuarialApr({ amountFinanced, payments, periodsPerYear: 12 }));

test('Appendix J(c): $5,000 repaid by 24 monthly payments of $230 is 9.69%', (t) => {
  t.is(monthlyApr(5000, monthlyPayments(230, 24)), 9.69);
});

test('Appendix J(c): $6,000 by 36 × $200, the first period 1 month and 19 days (f = 19/30), is 11.82%', (t) => {
  t.is(monthlyApr(6000, monthlyPayments(200, 36, { fraction: 19 / 30 })), 11.82);
});

test('Appendix J(c): an odd first payment of $250, then 23 × $230, is 10.08%', (t) => {
  t.is(monthlyApr(5000, [{ amount: 250, periods: 1 }, ...monthlyPayments(230, 23, { firstPeriods: 2 })]), 10.08);
});

test('Appendix J(c): 23 × $230, then an odd final payment of $280, is 10.50%', (t) => {
  t.is(monthlyApr(5000, [...monthlyPayments(230, 23), { amount: 280, periods: 24 }]), 10.5);
});

test('Appendix J(c): $250, 22 × $230, then $280, is 10.90%', (t) => {
  t.is(
    monthlyApr(5000, [
      { amount: 250, periods: 1 },
      ...monthlyPayments(230, 22, { firstPeriods: 2 }),
      { amount: 280, periods: 24 },
    ]),
    10.9,
  );
});

test(
  'Appendix J(c): a single payment of $1,080 after 255 days on $1,000 is 11.45% (the term is the ' + 'unit period)',
  (t) => {
    t.is(
      asPercent(
        actuarialApr({ amountFinanced: 1000, payments: [{ amount: 1080, periods: 1 }], periodsPerYear: 365 / 255 }),
      ),
      11.45,
    );
  },
);

test('the solver refuses payments that do not repay the amount financed', (t) => {
  t.throws(() => actuarialApr({ amountFinanced: 5000, payments: monthlyPayments(200, 24), periodsPerYear: 12 }), {
    instanceOf: RangeError,
  });
  t.is(monthlyApr(4800, monthlyPayments(200, 24)), 0, 'no finance charge, no rate');
});

test('monthly P&I: $162,000 at 3.875% over 360 months is $761.78', (t) => {
  t.is(Math.round(monthlyPayment(162000, 0.03875, 360) * 100) / 100, 761.78);
});

test(
  'H-25(B): the amortized schedule gives the printed TIP (69.46%) and the APR 4.174% from the ' + "CD's own figures",
  (t) => {
    const schedule = amortize(162000, 0.03875, 360, 761.78);
    t.is(schedule.payments.length, 360);
    t.is(schedule.payments.at(-1), 764.68, 'the last payment pays off what cent rounding left');
    t.is(
      asPercent(
        totalInterestPercentage({
          loanAmount: 162000,
          scheduledInterest: schedule.totalInterest,
          prepaidInterest: 279.04,
        }),
      ),
      69.46,
    );
    const { apr, mortgageInsuranceMonths, approximate } = closingDisclosureApr({
      loanAmount: 162000,
      annualRate: 0.03875,
      months: 360,
      monthlyPrincipalAndInterest: 761.78,
      monthlyMortgageInsurance: 82.35,
      financeCharge: 118830.27,
      amountFinanced: 162000,
    });
    t.is(asPercent(apr, 3), 4.174);
    t.is(
      mortgageInsuranceMonths,
      80,
      'inferred: the finance charge less the scheduled interest is 80 months of $82.35',
    );
    t.true(approximate);
  },
);

test('the solver agrees with plain bisection of Appendix J’s equation on varied schedules, to 1e-10', (t) => {
  // A reference written from the equation alone: bisect the rate until the present value meets the amount.
  const presentValue = (payments: { amount: number; periods: number; fraction?: number }[], i: number) =>
    payments.reduce((pv, p) => pv + p.amount / ((1 + (p.fraction ?? 0) * i) * (1 + i) ** p.periods), 0);
  const bisected = (amountFinanced: number, payments: { amount: number; periods: number; fraction?: number }[]) => {
    let low = 0;
    let high = 1;
    while (presentValue(payments, high) > amountFinanced) high *= 2;
    for (let n = 0; n < 200; n++) {
      const mid = (low + high) / 2;
      if (presentValue(payments, mid) > amountFinanced) low = mid;
      else high = mid;
    }
    return ((low + high) / 2) * 12;
  };
  // Deterministic variety: short and 30-year terms, odd first periods, balloons, tiny and huge rates.
  let seed = 17;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let k = 0; k < 60; k++) {
    const months = [6, 24, 60, 180, 360][k % 5]!;
    const amount = 1000 + Math.round(random() * 400_000);
    const rate = [0.0001, 0.03, 0.09, 0.35, 2.5][Math.floor(k / 5) % 5]!;
    const payment = monthlyPayment(amount, rate, months);
    const payments = monthlyPayments(payment, months, { fraction: k % 3 === 0 ? random() : 0 });
    if (k % 4 === 1) payments[months - 1] = { amount: payment + amount * random(), periods: months };
    const solved = actuarialApr({ amountFinanced: amount, payments, periodsPerYear: 12 });
    t.true(
      Math.abs(solved - bisected(amount, payments)) < 1e-10,
      `schedule ${k}: ${solved} against ${bisected(amount, payments)}`,
    );
  }
});
