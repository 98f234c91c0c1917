// The pay stub ("Earnings Statement"): employer, employee, dates, pay frequency, gross pay of the period and
// year to date. Stubs often arrive scanned: everything is read from lines and phrases, as OCR words make them.
import type { Located, PayStubFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, onLine, type Phrase, phrasesOf, placed, plainText, withoutUndefined } from './labels.js';
import { daysBetween, findDate, organisationName } from './values.js';

const DATE = /(\d{1,2}\/\d{1,2}\/\d{2,4}|[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4})/.source;

/** Pay periods a year by the printed frequency. */
const FREQUENCIES: [RegExp, number][] = [
  [/^bi-?\s?weekly\b|^every (?:two|2) weeks/i, 26],
  [/^semi-?\s?monthly\b|^twice (?:a|per) month/i, 24],
  [/^weekly\b/i, 52],
  [/^monthly\b/i, 12],
];

export function extractPayStub(pages: readonly PageLayout[]): PayStubFields {
  // "Pay Period: 01/01/2026 - 01/15/2026": the period's end is the second date.
  const period = onLine(
    pages,
    new RegExp(String.raw`\bPay Period:?\s*${DATE}\s*(?:-|–|—|to|through|thru)\s*${DATE}`, 'i'),
  );
  const periodEnd = period && findDate(period.match[2]!);
  const periodLength = (p: typeof period): Located<number> | undefined => {
    const [start, end] = p ? [findDate(p.match[1]!), findDate(p.match[2]!)] : [];
    const periods = start && end ? periodsFromDates(start, end) : undefined;
    return p && periods ? { value: periods, page: p.page, box: p.box } : undefined;
  };
  return withoutUndefined({
    employer:
      labelled(pages, /employer(?: name)?|company(?: name)?/, plainText, { colonOnly: true }) ?? letterhead(pages),
    employee: labelled(pages, /employee(?: name)?/, plainText, { colonOnly: true }),
    payDate: labelled(pages, /pay date|check date|advice date|payment date/, findDate),
    periodEnd:
      labelled(pages, /(?:pay )?period end(?:ing)?(?: date)?/, findDate) ??
      (period && periodEnd ? { value: periodEnd, page: period.page, box: period.box } : undefined),
    periodsPerYear:
      labelled(pages, /pay frequency|frequency|pay schedule|pay cycle/, periodsPerYear) ?? periodLength(period),
    ...grossPay(pages),
  });
}

/**
 * Payroll prints the company's name atop the stub: the first top line (above the stub's title) that ends
 * like a company's or an institution's name.
 */
function letterhead(pages: readonly PageLayout[]): Located<string> | undefined {
  const page = pages[0];
  const first = page?.lines
    .slice(0, 6)
    .map((l) => phrasesOf(l)[0])
    .find((p) => p !== undefined && ORGANISATION_END.test(p.text) && organisationName(p.text) !== undefined);
  return page && first ? placed(first.text, page, first.item) : undefined;
}

const ORGANISATION_END =
  /\b(?:inc|llc|l\.l\.c|corp|corporation|company|co|ltd|lp|llp|group|systems|services|solutions|associates|partners|hospital|clinic|medical center|health|university|college|school district|district|county|city|department|bank|foundation|institute|agency|authority)\.?$/i;

/**
 * Periods a year from the printed period's length: 7 days weekly, 14 biweekly, the 1st–15th semi-monthly, a
 * month monthly.
 */
function periodsFromDates(start: string, end: string): number | undefined {
  const days = daysBetween(start, end) + 1;
  if (days >= 6 && days <= 8) return 52;
  const startDay = Number(start.slice(8, 10));
  if (days >= 13 && days <= 16 && (startDay === 1 || startDay === 16)) return 24;
  if (days >= 13 && days <= 15) return 26;
  if (days >= 28 && days <= 31) return 12;
  return undefined;
}

function periodsPerYear(text: string): number | undefined {
  return FREQUENCIES.find(([pattern]) => pattern.test(text.trim()))?.[1];
}

const GROSS_ROW = /^(?:total\s+)?gross(?:\s+(?:pay|earnings|wages))?\b/i;
/** An amount with its cents, as stubs print every figure (OCR misreadings repaired where they then check). */
const AMOUNT = { test: (text: string) => /\d[.,]\d{2}$/.test(text.trim()) && amount(text) !== undefined };

/**
 * The "Gross Pay" row: its amounts under the "Current" (or "This Period") and "Year to Date" column heads
 * when the stub prints them, else the first amount and the last.
 */
function grossPay(pages: readonly PageLayout[]): Pick<PayStubFields, 'grossPay' | 'ytdGross'> {
  for (const page of pages) {
    for (const [index, line] of page.lines.entries()) {
      const phrases = phrasesOf(line);
      if (!phrases[0] || !GROSS_ROW.test(phrases[0].text)) continue;
      // An OCR phrase may join the row's label and its first amount ("Gross Pay 3,461.54").
      const amounts = line.items.filter((i) => AMOUNT.test(i.text.trim()));
      if (amounts.length === 0) continue;
      const heads = page.lines
        .slice(Math.max(0, index - 12), index)
        .reverse()
        .map((l) => phrasesOf(l))
        .find((ps) => ps.some((p) => CURRENT.test(p.text)) && ps.some((p) => YTD.test(p.text)));
      const under = (head: RegExp) => {
        const column = heads?.find((p) => head.test(p.text));
        return column && nearest(amounts, column);
      };
      const current = heads ? under(CURRENT) : amounts[0];
      const ytd = heads ? under(YTD) : amounts.length > 1 ? amounts.at(-1) : undefined;
      const at = (item: typeof current): Located<number> | undefined => {
        const cents = item && amount(item.text);
        return item === undefined || cents === undefined ? undefined : placed(cents, page, item);
      };
      return withoutUndefined({ grossPay: at(current), ytdGross: at(ytd) ?? ytdRow(pages) });
    }
  }
  const ytd = ytdRow(pages);
  return ytd ? { ytdGross: ytd } : {};
}

/** A year-to-date gross printed on a row of its own: "YTD Gross Earnings $40,300.00". */
function ytdRow(pages: readonly PageLayout[]): Located<number> | undefined {
  return labelled(
    pages,
    /ytd gross(?: pay| earnings| wages)?|gross ytd|year[- ]to[- ]date gross(?: pay| earnings| wages)?/,
    amount,
  );
}

const CURRENT = /^(?:current|this period|current period)$/i;
const YTD = /^(?:ytd|year[- ]to[- ]date|ytd amount)$/i;

/** The amount whose centre is nearest the column head's centre. */
function nearest<T extends { x: number; width: number }>(items: T[], head: Phrase): T | undefined {
  const centre = (head.x + head.end) / 2;
  return [...items].sort((a, b) => Math.abs(a.x + a.width / 2 - centre) - Math.abs(b.x + b.width / 2 - centre))[0];
}
