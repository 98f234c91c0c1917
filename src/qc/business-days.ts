// Business days of Regulation Z. A specific business day (1026.2(a)(6)) is every day but Sundays and the
// legal public holidays of 5 U.S.C. 6103(a), on their actual dates (a holiday on a Saturday does not
// make the Friday before a holiday). A general business day is a day the creditor's offices are open
// for substantially all business; modelled as Monday to Friday, holidays excepted. Dates are ISO
// calendar dates ('2026-07-03'), never times, so no time zone can move them.

export type BusinessDayKind = 'general' | 'specific';

const DAY_MS = 86_400_000;

function parse(date: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`not an ISO date: ${date}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.toISOString().slice(0, 10) !== date) throw new RangeError(`not a calendar date: ${date}`);
  return d;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The n-th (1-based) given weekday of a month, or the last one with n = -1. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1));
    const offset = (weekday - first.getUTCDay() + 7) % 7;
    return iso(new Date(Date.UTC(year, month - 1, 1 + offset + (n - 1) * 7)));
  }
  const last = new Date(Date.UTC(year, month, 0));
  const back = (last.getUTCDay() - weekday + 7) % 7;
  return iso(new Date(Date.UTC(year, month - 1, last.getUTCDate() - back)));
}

const MONDAY = 1;
const THURSDAY = 4;

/** The legal public holidays of 5 U.S.C. 6103(a) in a year, by actual date, with their names. */
export function federalHolidays(year: number): Map<string, string> {
  const pad = (n: number) => String(n).padStart(2, '0');
  const fixed = (month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;
  const days: [string, string][] = [
    [fixed(1, 1), "New Year's Day"],
    [nthWeekday(year, 1, MONDAY, 3), 'Birthday of Martin Luther King, Jr.'],
    [nthWeekday(year, 2, MONDAY, 3), "Washington's Birthday"],
    [nthWeekday(year, 5, MONDAY, -1), 'Memorial Day'],
    [fixed(7, 4), 'Independence Day'],
    [nthWeekday(year, 9, MONDAY, 1), 'Labor Day'],
    [nthWeekday(year, 10, MONDAY, 2), 'Columbus Day'],
    [fixed(11, 11), 'Veterans Day'],
    [nthWeekday(year, 11, THURSDAY, 4), 'Thanksgiving Day'],
    [fixed(12, 25), 'Christmas Day'],
  ];
  // Juneteenth National Independence Day became a legal public holiday in 2021.
  if (year >= 2021) days.push([fixed(6, 19), 'Juneteenth National Independence Day']);
  return new Map(days.sort(([a], [b]) => a.localeCompare(b)));
}

export function isFederalHoliday(date: string): boolean {
  return federalHolidays(parse(date).getUTCFullYear()).has(date);
}

export function isBusinessDay(date: string, kind: BusinessDayKind): boolean {
  const weekday = parse(date).getUTCDay();
  if (weekday === 0 || isFederalHoliday(date)) return false;
  return kind === 'specific' || weekday !== 6;
}

/** The date `n` business days after `date` (`date` itself not counted): the mailbox rule is n = 3, specific. */
export function addBusinessDays(date: string, n: number, kind: BusinessDayKind): string {
  let d = parse(date);
  for (let counted = 0; counted < n; ) {
    d = new Date(d.getTime() + DAY_MS);
    if (isBusinessDay(iso(d), kind)) counted += 1;
  }
  return iso(d);
}

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: string, to: string, kind: BusinessDayKind): number {
  let d = parse(from);
  const end = parse(to);
  let n = 0;
  while (d < end) {
    d = new Date(d.getTime() + DAY_MS);
    if (isBusinessDay(iso(d), kind)) n += 1;
  }
  return n;
}
