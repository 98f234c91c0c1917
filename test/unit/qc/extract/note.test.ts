// The Note's terms read from its prose, and only in their plausible range: a rate or late charge outside
// it is a misreading ("49%" for "4%", "75 days" for 15), which gives no value rather than a wrong one, as
// on the Loan Estimate and Closing Disclosure.
import test from 'ava';
import { extractNote } from '../../../../src/qc/extract/note.js';
import { PageLayout } from '../../../../src/qc/reading/layout.js';

function note(rate: string, graceDays: string, lateFee: string): PageLayout {
  const lines = [
    'NOTE',
    `I will pay interest at a yearly rate of ${rate}.`,
    `If the Note Holder has not received the full amount of any monthly payment by the end of ${graceDays}`,
    'calendar days after the date it is due, I will pay a late charge to the Note Holder. The amount of the',
    `charge will be ${lateFee} of my overdue payment of principal and interest.`,
  ];
  return new PageLayout(
    1,
    lines.map((text, i) => ({ text, x: 72, y: 720 - i * 14, width: text.length * 5, height: 10 })),
  );
}

test("a Note's rate, grace period and late charge in range are read", (t) => {
  const fields = extractNote([note('4.250%', '15', '5.000%')]);
  t.is(fields.interestRate?.value, 0.0425);
  t.is(fields.lateChargeGraceDays?.value, 15);
  t.is(fields.lateChargePercent?.value, 0.05);
});

test('a rate over 25%, a grace period over 45 days or a late charge over 10% is no term of a Note', (t) => {
  const fields = extractNote([note('49%', '75', '50.000%')]);
  t.is(fields.interestRate, undefined);
  t.is(fields.lateChargeGraceDays, undefined);
  t.is(fields.lateChargePercent, undefined);
});

test('a rate or late charge of 0% is none', (t) => {
  const fields = extractNote([note('0%', '0', '0%')]);
  t.is(fields.interestRate, undefined);
  t.is(fields.lateChargeGraceDays, undefined);
  t.is(fields.lateChargePercent, undefined);
});
