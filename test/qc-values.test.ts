// Printed values to typed ones: what parses, and what is refused rather than guessed.
import test from 'ava';
import { parseDate, parseMoney, parseRate, parseTermMonths } from '../src/qc/extract/values.js';

test('dates in the forms\' shapes parse to ISO dates; impossible ones and years outside 1900–2100 do not', (t) => {
  t.is(parseDate('4/15/2013'), '2013-04-15');
  t.is(parseDate('4/15/13'), '2013-04-15');
  t.is(parseDate('April 15, 2013'), '2013-04-15');
  t.is(parseDate('2013-04-15'), '2013-04-15');
  t.is(parseDate('2/30/2013'), undefined);
  t.is(parseDate('12/30/9999'), undefined, 'a year that would send the business-day calendars across millennia');
  t.is(parseDate('1/1/0100'), undefined);
});

test('money is integer cents, credits negative; rates are decimals; terms are months', (t) => {
  t.is(parseMoney('$162,000'), 16_200_000);
  t.is(parseMoney('– $500.00'), -50_000);
  t.is(parseMoney('$1,80,000'), undefined);
  t.is(parseRate('3.875%'), 0.03875);
  t.is(parseTermMonths('30 years'), 360);
  t.is(parseTermMonths('360 months'), 360);
});
