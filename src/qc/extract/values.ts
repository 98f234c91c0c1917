// Printed values to typed ones: "$162,000" → 16200000 cents, "3.875%" → 0.03875, "4/15/2013" →
// 2013-04-15, "30 years" → 360 months. Anything that does not parse is undefined, never a guess.
import { z } from 'zod';
import type { Cents, IsoDate, Rate } from '../fields.js';

/** What a value lookup tests a phrase with: a pattern, or a parser's "does this parse". */
export interface Matcher {
  test(text: string): boolean;
}
const parses = (parse: (text: string) => unknown): Matcher => ({ test: (text) => parse(text) !== undefined });

/**
 * A number as OCR may misread it, repaired: letters it confuses with digits inside the number (O → 0,
 * l/I → 1, S → 5, B → 8), "S" for a leading "$", and spaces inside it ("$9,71 2.10"). Only a candidate:
 * the caller keeps it only if it then parses and its digit grouping checks.
 */
export function repairedNumber(text: string): string | undefined {
  // "S$ 16,054", "$S16,054": OCR read the dollar sign twice.
  const t = text.trim().replace(/^([–—-]?\s*)(?:S\$|\$S)/, '$1$');
  const m = /^([–—-]?\s*)([$S]?)\s?([\dOoDlI|SB,. ]+?)(\s?%)?$/.exec(t);
  if (!m) return undefined;
  // "$7.500.00": OCR took the thousands commas for points; only the last point is the decimal one.
  const body = (m[3]!.match(/\./g) ?? []).length > 1 ? m[3]!.replace(/\.(?=.*\.)/g, ',') : m[3]!;
  // A word that happens to be made of these letters ("SOB") is no number: after a dollar sign one real
  // digit will do, else most characters must be digits already.
  const real = (body.match(/\d/g) ?? []).length;
  if (real === 0 || (m[2] !== '$' && real < (body.replace(/[\s,.]/g, '').length + 1) >> 1)) return undefined;
  const digits = body
    .replace(/[OoD]/g, '0')
    .replace(/[lI|]/g, '1')
    .replace(/S/g, '5')
    .replace(/B/g, '8')
    .replace(/(?<=[\d,.])\s+(?=[\d,.])/g, '');
  if (/\s/.test(digits)) return undefined;
  const repaired = `${m[1]}${m[2] ? '$' : ''}${digits}${m[4] ?? ''}`;
  return repaired === text.trim() ? undefined : repaired;
}

/**
 * "$1,802.00", "– $500.00" (credits print with a dash), "$0" → cents; an OCR misreading repaired when it then
 * checks.
 */
export function parseMoney(text: string): Cents | undefined {
  const strict = (t: string): Cents | undefined => {
    const m = /^([–—-])?\s*\$\s?([\d,]+)(?:\.(\d{2}))?$/.exec(t.trim());
    if (!m || !/^\d{1,3}(?:,\d{3})*$|^\d+$/.test(m[2]!)) return undefined;
    const cents = Number(m[2]!.replaceAll(',', '')) * 100 + Number(m[3] ?? 0);
    return m[1] ? -cents : cents;
  };
  const repaired = strict(text) === undefined ? repairedNumber(text) : undefined;
  return strict(text) ?? (repaired === undefined ? undefined : strict(repaired)) ?? strict(dollarAsDigit(text) ?? '');
}

/**
 * A "$" OCR read as a digit ("9703.33", "3703.33" for "$703.33"), repaired only where the figure cannot be
 * what was printed: no sign, and four digits with no thousands comma.
 */
function dollarAsDigit(text: string): string | undefined {
  const m = /^[3589S](\d{3}(?:\.\d{2})?)$/.exec(text.trim());
  return m ? `$${m[1]}` : undefined;
}

export const MONEY: Matcher = parses(parseMoney);
export const PERCENT: Matcher = parses((t) => parseRate(t));
export const US_DATE: Matcher = parses((t) =>
  /^[\dOoDlI|SB]{1,2}\/[\dOoDlI|SB]{1,2}\/[\dOoDlI|SB]{2,4}$/.test(t.trim()) ? parseDate(t) : undefined,
);

/** An amount printed with or without its dollar sign ("82.35" in Projected Payments, "3,461.54" on a stub). */
export function parseAmount(text: string): Cents | undefined {
  // Without its sign the figure is as printed: "3703.33" on a stub is $3,703.33, not a misread "$".
  return parseMoney(/\$/.test(text) ? text : `$${text.trim()}`);
}

/** "3.875%" → 0.03875 (decimal fractions, rounded to 1e-9 to drop float noise). */
export function parseRate(text: string): Rate | undefined {
  const strict = (t: string) => /^(\d{1,3}(?:\.\d+)?)\s?%$/.exec(t.trim());
  const m = strict(text) ?? strict(repairedNumber(text) ?? '');
  return m ? Number((Number(m[1]) / 100).toFixed(9)) : undefined;
}

/**
 * A mortgage's interest rate or APR: above 0 and at most 25%, wherever it is printed. OCR that turns "4%"
 * into "49%" gives no rate rather than a wrong one (TIP, a share of the loan amount, runs past 100% and is
 * not bounded).
 */
export function parseMortgageRate(text: string): Rate | undefined {
  const rate = parseRate(text);
  return rate !== undefined && rate > 0 && rate <= 0.25 ? rate : undefined;
}

/** A late charge's grace period past this many days is a misreading ("75 days" for 15), not a term. */
export const MAX_GRACE_DAYS = 45;
/** A late charge over this percent of the payment is a misreading, not a term. */
export const MAX_LATE_FEE_PERCENT = 10;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "4/15/2013", "4/15/13", "April 15, 2013", "2013-04-15" → "2013-04-15"; impossible dates → undefined. */
export function parseDate(text: string): IsoDate | undefined {
  const t = text.trim();
  let y: number, mo: number, d: number;
  // A numeric date OCR misread ("4/l5/2O13") is repaired; the calendar check below still applies.
  const numeric = /^[\dOoDlI|SB]{1,2}\/[\dOoDlI|SB]{1,2}\/[\dOoDlI|SB]{2,4}$/.test(t)
    ? t.replace(/[OoD]/g, '0').replace(/[lI|]/g, '1').replace(/S/g, '5').replace(/B/g, '8')
    : t;
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(numeric);
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
  const m = /^(\d{1,3})\s*(years?|yrs?|months?|mos?|a[ñn]os|afios|meses)\.?$/i.exec(text.trim());
  if (!m) return undefined;
  const months = /^m/i.test(m[2]!) ? Number(m[1]) : Number(m[1]) * 12;
  // A loan term runs from a month to 50 years; anything else is a misread.
  return months >= 1 && months <= 600 ? months : undefined;
}

/** Days from one ISO date to another (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
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
  checkbox: z
    .union([z.boolean(), z.enum(['Yes', 'On', 'Off', 'No', 'true', 'false'])])
    .transform((v) => v === true || v === 'Yes' || v === 'On' || v === 'true'),
};

function invalid(ctx: z.RefinementCtx, what: string): never {
  ctx.addIssue({ code: 'custom', message: `not a ${what}` });
  return z.NEVER;
}

// ---------------------------------------------------------------------------------------------------
// Free text. A blank form prints only its captions, and a reader that takes "whatever stands right of the
// label" then reads the next caption as the value ("Borrower: Loan Term"). Names and addresses are
// accepted only in their own shapes, and never when they are made of a form's caption words.

/** Words of form captions (LE, CD, URLA, W-2, pay stub, appraisal, HUD-1; the H-28 forms' Spanish), lowercase. */
const CAPTION_WORDS = new Set(
  `a about account address agent amount and annual appraisal appraised applicant applicants application apr as at
   balloon bank borrower borrower's borrowers box broker by can cash change city closing co code company cost costs
   credit credits current date dates days de del details disbursement disclosure due e earnings el email employee
   employee's employer employer's estimate estimated federal fee fees file final first for from gross id identification
   if in include income information insurance interest is issued la last license loan lock maturity mic middle monthly
   mortgage n/a na name nmls no not number of officer on or other page pay payment payments per period phone premium
   prepayment present price principal product property purpose rate received sale seller settlement signature social
   ssn st state statement street suffix tax taxes term the this title tip to total transaction type unit value wages
   with year years ytd zip # uniform residential application addendum form section part employment business owner
   self-employed employed position start gross base telephone cell home mailing former applied mortgage case hud va fha
   usda del de préstamo prestamo prestatario prestamista propiedad tipo corredor hipotecario agente liquidación
   liquidacion vendedor inmobiliario información informacion contacto nombre dirección direccion licencia correo
   electrónico electronico teléfono telefono persona deudor fecha emisión emision`
    .split(/\s+/)
    .filter(Boolean),
);

/** Caption words run together, as OCR that split or joined a caption reads them ("L oan ID", "LOANID"). */
const RUN_TOGETHER_CAPTION =
  /^(?:loan|id|term|type|date|issued|name|borrower|lender|property|amount|rate|lock|purpose|product|number|no)+$/;

/** True when every word of `text` is a caption word: a form's own printing, not a value written on it. */
export function isCaption(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/[^a-z#'’/áéíóúñ]+/)
    .filter(Boolean);
  if (words.length === 0) return false;
  if (words.every((w) => CAPTION_WORDS.has(w.replace(/[’]/g, "'")))) return true;
  // OCR that split or ran a caption together ("L oan ID", "LOANID #"; the "#" is no word).
  return RUN_TOGETHER_CAPTION.test(words.join('').replace(/#/g, ''));
}

/** A person's name, or several ("Michael Jones and Mary Stone"): capitalised words, no digits, no captions. */
export function personName(text: string): string | undefined {
  const t = text
    .replace(/\s+/g, ' ')
    .replace(/[,;:]+$/, '')
    .trim();
  if (t.length < 3 || t.length > 120 || /\d|[@/\\|$%]/.test(t) || isCaption(t)) return undefined;
  const words = t.split(' ');
  if (words.length < 2 || words.length > 12) return undefined;
  const joiners = new Set(['and', '&', 'or', 'y', 'de', 'del', 'la', 'van', 'von', 'der', 'da', 'di', 'le', 'st.']);
  return words.every((w) => joiners.has(w.toLowerCase()) || /^[A-Z][A-Za-z'’.-]*,?$/.test(w) || /^[A-Z]\.?,?$/.test(w))
    ? t
    : undefined;
}

/** A lender's or an employer's name: one to ten words, at least one a capitalised word, no caption. */
export function organisationName(text: string): string | undefined {
  const t = text
    .replace(/\s+/g, ' ')
    .replace(/[,;:]+$/, '')
    .trim();
  if (t.length < 2 || t.length > 100 || isCaption(t) || /[|\\{}<>@$%]/.test(t) || /[.!?]\s+[a-z]/.test(t))
    return undefined;
  const words = t.split(' ');
  if (words.length > 10 || !words.some((w) => /^[A-Z][A-Za-z&'’.-]+$/.test(w) && w.length >= 2)) return undefined;
  // A sentence is no name: mostly lowercase words.
  const lower = words.filter((w) => /^[a-z]/.test(w) && !['and', 'of', 'the', 'de', 'for'].includes(w)).length;
  return lower * 2 > words.length ? undefined : t;
}

/** A street address, one line or several joined: a house number and a street, or a city with state and ZIP. */
export function streetAddress(text: string): string | undefined {
  const t = text
    .replace(/\s+/g, ' ')
    .replace(/\s+,/g, ',')
    .replace(/[\s,;:.]+$/, '')
    .trim();
  if (t.length < 6 || t.length > 160 || isCaption(t)) return undefined;
  const street = /^\d{1,6}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?[A-Za-z0-9]/.test(t);
  const cityStateZip = /\b[A-Z]{2}\.?\s+\d{5}(?:-\d{4})?\b/.test(t);
  const poBox = /^p\.?\s?o\.?\s+box\s+\d/i.test(t);
  return street || cityStateZip || poBox ? t : undefined;
}
