// Regulation Z business days: specific (every day but Sundays and federal holidays, on their actual
// dates, Juneteenth included) and general (the creditor's open days: Monday to Friday, holidays
// excepted), across holidays, weekends and year ends.
import test from 'ava';
import { addBusinessDays, businessDaysBetween, federalHolidays, isBusinessDay } from '../../../src/qc/business-days.js';

test('the federal holidays of 2026 by their actual dates', (t) => {
  t.deepEqual(
    [...federalHolidays(2026).keys()],
    [
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ],
  );
  t.false(federalHolidays(2020).has('2020-06-19'), 'Juneteenth is a legal public holiday from 2021');
});

test('a holiday on a Saturday is that Saturday: the Friday before stays a business day', (t) => {
  // Independence Day 2026 is a Saturday (observed by federal offices on Friday the 3rd).
  t.true(isBusinessDay('2026-07-03', 'specific'));
  t.true(isBusinessDay('2026-07-03', 'general'));
  t.false(isBusinessDay('2026-07-04', 'specific'));
  t.false(isBusinessDay('2026-07-05', 'specific'), 'Sunday');
});

test('Saturdays are specific business days but not general ones; Sundays are neither', (t) => {
  t.true(isBusinessDay('2026-11-21', 'specific'));
  t.false(isBusinessDay('2026-11-21', 'general'));
  t.false(isBusinessDay('2026-11-22', 'specific'));
  t.false(isBusinessDay('2026-11-22', 'general'));
});

test(
  'the mailbox rule: a CD mailed Thursday 2 July 2026 is received Tuesday 7 July (3 specific ' + 'business days)',
  (t) => {
    // Fri 3 (1), Sat 4 holiday, Sun 5, Mon 6 (2), Tue 7 (3).
    t.is(addBusinessDays('2026-07-02', 3, 'specific'), '2026-07-07');
  },
);

test('Juneteenth and Thanksgiving are skipped; a Saturday counts only as a specific business day', (t) => {
  // Thu 18 June 2026 → Fri 19 Juneteenth, Sat 20 (specific), Sun 21, Mon 22.
  t.is(addBusinessDays('2026-06-18', 1, 'specific'), '2026-06-20');
  t.is(addBusinessDays('2026-06-18', 1, 'general'), '2026-06-22');
  // Wed 25 Nov 2026 → Thu 26 Thanksgiving, Fri 27, Sat 28, Sun 29, Mon 30.
  t.is(addBusinessDays('2026-11-25', 3, 'specific'), '2026-11-30');
  t.is(addBusinessDays('2026-11-25', 3, 'general'), '2026-12-01');
});

test('across a year end: Christmas and New Year are skipped', (t) => {
  // Thu 24 Dec 2026 → Fri 25 Christmas, Sat 26 (1), Sun 27, Mon 28 (2), ..., Thu 31 (5), Fri 1 Jan holiday, Sat 2 (6).
  t.is(addBusinessDays('2026-12-24', 6, 'specific'), '2027-01-02');
  t.is(addBusinessDays('2026-12-24', 6, 'general'), '2027-01-05');
});

test('business days between two dates count the days after the first up to and including the second', (t) => {
  t.is(businessDaysBetween('2026-07-02', '2026-07-07', 'specific'), 3);
  t.is(businessDaysBetween('2026-07-02', '2026-07-07', 'general'), 3);
  t.is(businessDaysBetween('2026-07-07', '2026-07-02', 'specific'), 0);
  t.is(businessDaysBetween('2026-11-20', '2026-11-30', 'general'), 5, 'Thanksgiving and two weekends out');
});

test('dates that are not calendar dates are refused', (t) => {
  t.throws(() => isBusinessDay('2026-02-30', 'specific'), { instanceOf: RangeError });
  t.throws(() => isBusinessDay('07/02/2026', 'specific'), { instanceOf: RangeError });
});
