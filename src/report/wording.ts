// Dates and times as a person reads them in a report: "15 April 2013", "23 November 2026, 08:00 UTC".
import type { IsoDate } from '../qc/fields.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2013-04-15` → "15 April 2013" (a calendar day: no time zone applies). */
export function formatDay(iso: IsoDate): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** An instant to the minute, in UTC: "23 November 2026, 08:00 UTC". */
export function formatInstant(at: Date): string {
  const day = formatDay(at.toISOString().slice(0, 10));
  return `${day}, ${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
}

/**
 * Text of the engine (a finding's summary, an evidence value) as a person reads it in the report: its ISO
 * dates written out ("2013-04-18" → "18 April 2013"). The JSON keeps them as they are, for programs.
 */
export function forPeople(text: string): string {
  return text.replace(/\b(\d{4}-\d{2}-\d{2})\b(?!T)/g, (iso) => formatDay(iso));
}
