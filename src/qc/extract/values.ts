// Printed values to typed ones: "$162,000" → 16200000 cents, "3.875%" → 0.03875, "4/15/2013" →
// 2013-04-15, "30 years" → 360 months. Anything that does not parse is undefined, never a guess.
import { z } from 'zod';
import type { Cents, IsoDate, Rate } from '../fields.js';

export const MONEY = /^[–—-]?\s*\$\s?[\d,]+(?:\.\d{2})?$/;
export const PERCENT = /^\d{1,3}(?:\.\d+)?\s?%$/;
export const US_DATE = /^\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2})$/;

/** "$1,802.00", "– $500.00" (credits print with a dash), "$0" → cents. */
export function parseMoney(text: string): Cents | undefined {
  const m = /^([–—-])?\s*\$\s?([\d,]+)(?:\.(\d{2}))?$/.exec(text.trim());
  if (!m || !/^\d{1,3}(?:,\d{3})*$|^\d+$/.test(m[2]!)) return undefined;
  const cents = Number(m[2]!.replaceAll(',', '')) * 100 + Number(m[3] ?? 0);
  return m[1] ? -cents : cents;
}

/** An amount printed with or without its dollar sign ("82.35" in Projected Payments, "3,461.54" on a stub). */
export function parseAmount(text: string): Cents | undefined {
  return parseMoney(text) ?? parseMoney(`$${text.trim()}`);
}

/** "3.875%" → 0.03875 (decimal fractions, rounded to 1e-9 to drop float noise). */
export function parseRate(text: string): Rate | undefined {
  const m = /^(\d{1,3}(?:\.\d+)?)\s?%$/.exec(text.trim());
  return m ? Number((Number(m[1]) / 100).toFixed(9)) : undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "4/15/2013", "4/15/13", "April 15, 2013", "2013-04-15" → "2013-04-15"; impossible dates → undefined. */
export function parseDate(text: string): IsoDate | undefined {
  const t = text.trim();
  let y: number, mo: number, d: number;
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(t);
  if (m) [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3]!.length === 2 ? `20${m[3]}` : m[3])];
  else if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t))) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(t))) {
    const month = MONTHS.findIndex((name) => name.startsWith(m![1]!.toLowerCase()) && m![1]!.length >= 3);
    if (month < 0) return undefined;
    [y, mo, d] = [Number(m[3]), month + 1, Number(m[2])];
  } else return undefined;
  // Loan documents date from this century or the last; anything else is a misread or a forgery, and the
  // business-day calendars should not be sent walking across millennia.
  if (y < 1900 || y > 2100) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/** "30 years", "30 yrs", "360 months", "5 yr", "30 años" → months. */
export function parseTermMonths(text: string): number | undefined {
  const m = /^(\d{1,3})\s*(years?|yrs?|months?|mos?|a[ñn]os|meses)\.?$/i.exec(text.trim());
  if (!m) return undefined;
  const months = /^m/i.test(m[2]!) ? Number(m[1]) : Number(m[1]) * 12;
  // A loan term runs from a month to 50 years; anything else is a misread.
  return months >= 1 && months <= 600 ? months : undefined;
}

/** A date found anywhere in a longer text ("YES, until 4/16/2013 at 5:00 p.m. EDT"). */
export function findDate(text: string): IsoDate | undefined {
  const m = /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}\b/.exec(text);
  return m ? parseDate(m[0]) : undefined;
}

/** A money amount found anywhere in a longer text ("As high as $3,240"). */
export function findMoney(text: string): Cents | undefined {
  const m = /[–—-]?\s*\$\s?[\d,]+(?:\.\d{2})?/.exec(text);
  return m ? parseMoney(m[0]) : undefined;
}

/**
 * Form-field values (AcroForm) are input from whoever filled the PDF: validated here, at the boundary.
 * Each schema accepts the printed shapes above and yields the typed value, or fails.
 */
export const FormValue = {
  money: z.string().transform((s, ctx) => parseAmount(s) ?? invalid(ctx, 'money')),
  date: z.string().transform((s, ctx) => parseDate(s) ?? invalid(ctx, 'date')),
  text: z.string().trim().min(1).max(200),
  checkbox: z.union([z.boolean(), z.enum(['Yes', 'On', 'Off', 'No', 'true', 'false'])]).transform((v) => v === true || v === 'Yes' || v === 'On' || v === 'true'),
};

function invalid(ctx: z.RefinementCtx, what: string): never {
  ctx.addIssue({ code: 'custom', message: `not a ${what}` });
  return z.NEVER;
}

// ---------------------------------------------------------------------------------------------------
// Free text. A blank form prints only its captions, and a reader that takes "whatever stands right of the
// label" then reads the next caption as the value ("Borrower: Loan Term"). Names and addresses are
// accepted only in their own shapes, and never when they are made of a form's caption words.

/** Words of form captions (LE, CD, URLA, W-2, pay stub, appraisal, HUD-1), lowercase. */
const CAPTION_WORDS = new Set(
  `a about account address agent amount and annual appraisal appraised applicant applicants application apr as at balloon bank
  borrower borrower's borrowers box broker by can cash change city closing co code company cost costs credit credits current date
  dates days de del details disbursement disclosure due e earnings el email employee employee's employer employer's estimate
  estimated federal fee fees file final first for from gross id identification if in include income information insurance interest
  is issued la last license loan lock maturity mic middle monthly mortgage n/a na name nmls no not number of officer on or other
  page pay payment payments per period phone premium prepayment present price principal product property purpose rate received
  sale seller settlement signature social ssn st state statement street suffix tax taxes term the this title tip to total
  transaction type unit value wages with year years ytd zip # del de préstamo prestamo prestatario prestamista propiedad tipo`
    .split(/\s+/)
    .filter(Boolean),
);

/** True when every word of `text` is a caption word: a form's own printing, not a value written on it. */
export function isCaption(text: string): boolean {
  const words = text.toLowerCase().split(/[^a-z#'’/áéíóúñ]+/).filter(Boolean);
  if (words.length === 0) return false;
  if (words.every((w) => CAPTION_WORDS.has(w.replace(/[’]/g, "'")))) return true;
  // OCR that split or ran a caption together ("L oan ID", "LOANID").
  return /^(?:loan|id|term|type|date|issued|name|borrower|lender|property|amount|rate|lock|purpose|product|number|no)+$/.test(words.join(''));
}

/** A person's name, or several ("Michael Jones and Mary Stone"): capitalised words, no digits, no captions. */
export function personName(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').replace(/[,;:]+$/, '').trim();
  if (t.length < 3 || t.length > 120 || /\d|[@/\\|$%]/.test(t) || isCaption(t)) return undefined;
  const words = t.split(' ');
  if (words.length < 2 || words.length > 12) return undefined;
  const joiners = new Set(['and', '&', 'or', 'y', 'de', 'del', 'la', 'van', 'von', 'der', 'da', 'di', 'le', 'st.']);
  return words.every((w) => joiners.has(w.toLowerCase()) || /^[A-Z][A-Za-z'’.-]*,?$/.test(w) || /^[A-Z]\.?,?$/.test(w)) ? t : undefined;
}

/** A lender's or an employer's name: one to ten words, at least one a capitalised word, no caption. */
export function organisationName(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').replace(/[,;:]+$/, '').trim();
  if (t.length < 2 || t.length > 100 || isCaption(t) || /[|\\{}<>@$%]/.test(t) || /[.!?]\s+[a-z]/.test(t)) return undefined;
  const words = t.split(' ');
  if (words.length > 10 || !words.some((w) => /^[A-Z][A-Za-z&'’.-]+$/.test(w) && w.length >= 2)) return undefined;
  // A sentence is no name: mostly lowercase words.
  const lower = words.filter((w) => /^[a-z]/.test(w) && !['and', 'of', 'the', 'de', 'for'].includes(w)).length;
  return lower * 2 > words.length ? undefined : t;
}

/** A street address, one line or several joined: a house number and a street, or a city with state and ZIP. */
export function streetAddress(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').replace(/\s+,/g, ',').replace(/[\s,;:.]+$/, '').trim();
  if (t.length < 6 || t.length > 160 || isCaption(t)) return undefined;
  const street = /^\d{1,6}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?[A-Za-z0-9]/.test(t);
  const cityStateZip = /\b[A-Z]{2}\.?\s+\d{5}(?:-\d{4})?\b/.test(t);
  const poBox = /^p\.?\s?o\.?\s+box\s+\d/i.test(t);
  return street || cityStateZip || poBox ? t : undefined;
}
