// Extraction of the TILA-RESPA integrated disclosures, the Loan Estimate (H-24) and the Closing
// Disclosure (H-25). Both print the same loan terms under the same labels (capitals on the LE, title case
// on the CD), so one reader serves both; each form's own fields are read in its module.
import type { Cents, DisclosureTerms, FeeLine, Located } from '../fields.js';
import { leading, type PageLayout } from '../reading/layout.js';
import type { TextItem } from '../reading/page.js';
import { findValue, located, parsedValue, placed, withoutUndefined } from './labels.js';
import {
  MONEY,
  PERCENT,
  US_DATE,
  findMoney,
  type Matcher,
  isCaption,
  organisationName,
  parseAmount,
  parseDate,
  parseMoney,
  parseRate,
  parseMortgageRate,
  MAX_GRACE_DAYS,
  MAX_LATE_FEE_PERCENT,
  parseTermMonths,
  streetAddress,
} from './values.js';

/** The value right of the label, else (another layout) the one under it, when it matches `value`. */
const rightOrUnder = (
  found: TextItem | undefined,
  page: PageLayout,
  l: TextItem,
  value: Matcher,
): TextItem | undefined => {
  if (found) return found;
  const under = page.under(l);
  return under && leading(under, value);
};
const right = (value: Matcher, maxX?: number, tolerance?: number) => (page: PageLayout, l: TextItem) =>
  rightOrUnder(
    page.valueRightOf(l, value, { maxX, ...(tolerance === undefined ? {} : { tolerance }) }),
    page,
    l,
    value,
  );
/**
 * The last matching value right of the label before maxX: the "Final" column where LE and CD figures stand
 * side by side.
 */
const lastRight = (value: Matcher, maxX: number, tolerance?: number) => (page: PageLayout, l: TextItem) =>
  rightOrUnder(
    page
      .rightOf(l, { maxX, ...(tolerance === undefined ? {} : { tolerance }) })
      .filter((i) => value.test(i.text.trim()))
      .at(-1),
    page,
    l,
    value,
  );
const anyRight = (page: PageLayout, l: TextItem) => page.rightOf(l)[0];
/** The phrase right of a label, then the one under it: free-text values are read only in their own shapes. */
export const firstRight = (page: PageLayout, l: TextItem): TextItem[] => {
  const under = page.under(l);
  return [...page.rightOf(l).slice(0, 1), ...(under ? [under] : [])];
};

/** The phrase right of a label, with the line under it when the value wraps after a comma. */
function wrapped(page: PageLayout, l: TextItem): TextItem[] {
  const first = page.rightOf(l)[0];
  if (!first?.text.trim().endsWith(',')) return first ? [first] : [];
  const text = page
    .columnBelow(first, l.x, 2)
    .map((i) => i.text.trim())
    .join(' ');
  return [{ ...first, text }];
}

/** A word that names a loan product, in English or Spanish. */
const PRODUCT_WORD =
  /\b(?:fixed|adjustable|arm|rate|balloon|interest only|step|negative amortization|tasa|fija|ajustable|intereses|cuota)\b/i;

/** A loan product as the forms name it ("Fixed Rate", "5/1 Adjustable Rate", "Year 7 Balloon Payment, Fixed Rate"). */
function product(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= 80 && !isCaption(t) && PRODUCT_WORD.test(t) ? t : undefined;
}

export function money(
  pages: readonly PageLayout[],
  label: RegExp,
  maxX = 300,
  tolerance?: number,
): Located<Cents> | undefined {
  return located(findValue(pages, label, lastRight(MONEY, maxX, tolerance)), parseMoney);
}

/**
 * A Loan Calculations / Comparisons figure: at the foot of a label that wraps, in the value column (up to four
 * lines down: the Spanish CD's explanations run longer).
 */
export function calculation<T>(
  pages: readonly PageLayout[],
  label: RegExp,
  value: Matcher,
  parse: (s: string) => T | undefined,
): Located<T> | undefined {
  // OCR joins a caption to the explanation beside it ("Total of Payments. Total you will have paid after").
  return located(
    findValue(pages, label, (page, l) => page.valueBelow(l, value, { minDx: 100, maxDy: 35 }), { anyPrefix: true }),
    parse,
  );
}

/** A mortgage's interest rate or APR (parseMortgageRate's bounds). */
const MORTGAGE_RATE: Matcher = { test: (text) => parseMortgageRate(text) !== undefined };

const PURPOSES = ['Purchase', 'Refinance', 'Construction', 'Home Equity Loan'];
/** The Spanish forms (H-28) print the same closed lists in Spanish; the fields hold the English entry. */
const SPANISH_PURPOSES: [RegExp, string][] = [
  [/^adquisici[oó]n|^compra/i, 'Purchase'],
  [/^refinanci/i, 'Refinance'],
  [/^construcci[oó]n/i, 'Construction'],
  [/^pr[eé]stamo (?:sobre|con garant[ií]a)/i, 'Home Equity Loan'],
];
const SPANISH_LOAN_TYPES: Record<string, string> = { convencional: 'Conventional' };

/** "Purchase ce" (a clipped tail), "Adquisición por compra" → the list entry printed. */
function purpose(text: string): string | undefined {
  return (
    PURPOSES.find((p) => text.toLowerCase().startsWith(p.toLowerCase())) ??
    SPANISH_PURPOSES.find(([re]) => re.test(text))?.[1]
  );
}

/**
 * The integrated disclosures' labels, English (H-24, H-25) and Spanish (H-28), read into the same fields.
 * Loan Calculations labels end with a period on the CD.
 */
export const LABEL = {
  dateIssued: /^(?:date issued|fecha de emisi[oó]n)$/i,
  loanTerm: /^(?:loan term|plazo del pr[eé]stamo)$/i,
  purpose: /^(?:purpose|finalidad)$/i,
  product: /^(?:product|producto)$/i,
  loanType: /^(?:loan type|tipo de(?: pr[eé]stamo)?)$/i,
  // "N.º del préstamo": OCR reads the ordinal sign as any mark or figure ("N.*", "N.?", "N.9").
  loanId: /^(?:loan id\s*#?|n\.?\s*(?:[º°o]|[^\sa-z]{1,2})?\s*(?:del|de)\s+pr[eé]stamo)$/i,
  loanAmount: /^(?:loan amount|monto del pr[eé]stamo)$/i,
  interestRate: /^(?:interest rate|tasa de inter[eé]s)$/i,
  monthlyPrincipalAndInterest: /^(?:monthly principal & interest|pago mensual(?: de intereses y capital)?)$/i,
  prepaymentPenalty: /^(?:prepayment penalty|multa por pago anticipado)$/i,
  balloonPayment: /^(?:balloon payment|cuota extraordinaria)$/i,
  mortgageInsurance: /^(?:mortgage insurance|seguro hipotecario)$/i,
  apr: /^(?:annual percentage rate \(apr\)|tasa porcentual anual(?: \(apr\))?)\.?$/i,
  tip: /^(?:total interest percentage \(tip\)|total de intereses pagados(?: \(tip\))?|porcentaje total de intereses(?: \(tip\))?)\.?$/i,
  lender: /^(?:lender|prestamista)$/i,
  property: /^(?:property|inmueble|propiedad)$/i,
  lenderCredits: /^(?:lender credits|cr[eé]ditos del prestamista)\b/i,
  applicantSignature: /^(?:applicant signature|firma del solicitante)$/i,
};
const LOAN_TYPES = ['Conventional', 'FHA', 'VA', 'USDA', 'RHS', 'Other'];
/**
 * A checked box as a word: the glyph a text layer prints, or what OCR makes of a filled box ("X", "[x]",
 * "(X)", "®" for ☒).
 */
export const CHECK_MARK = /^(?:[xX✓✔☒☑■●◼®]|\[[xX✓✔]\]?|[xX✓✔]\]|\([xX✓✔]\)?|[xX]!)$/;

export function readDisclosureTerms(pages: readonly PageLayout[]): DisclosureTerms {
  const terms: DisclosureTerms = {
    dateIssued: located(findValue(pages, LABEL.dateIssued, right(US_DATE)), parseDate),
    loanTermMonths: parsedValue(pages, LABEL.loanTerm, firstRight, parseTermMonths),
    // The form's field box clips what was typed into it; the text layer keeps the clipped tail ("Purchase
    // ce"). Purposes are a closed list, so the printed one is the list entry the value starts with.
    purpose: parsedValue(pages, LABEL.purpose, firstRight, purpose),
    product: parsedValue(pages, LABEL.product, wrapped, product),
    loanType: loanType(pages),
    loanId: loanId(pages),
    loanAmount: money(pages, LABEL.loanAmount),
    // The LE prints the rate 3 pt below its label's baseline.
    interestRate: located(findValue(pages, LABEL.interestRate, right(MORTGAGE_RATE, 300, 3.5)), parseRate),
    // The Spanish LE sets the figure between the label's two lines.
    monthlyPrincipalAndInterest: money(pages, LABEL.monthlyPrincipalAndInterest, 300, 5),
    prepaymentPenalty: yesNo(pages, LABEL.prepaymentPenalty),
    prepaymentPenaltyMax: located(
      findValue(pages, LABEL.prepaymentPenalty, (p, l) => p.rightOf(l).find((i) => /\$[\d,]+/.test(i.text))),
      findMoney,
    ),
    balloonPayment: yesNo(pages, LABEL.balloonPayment),
    mortgageInsurance: mortgageInsurance(pages),
    apr: calculation(pages, LABEL.apr, MORTGAGE_RATE, parseRate),
    tip: calculation(pages, LABEL.tip, PERCENT, parseRate),
    lender: parsedValue(pages, LABEL.lender, firstRight, organisationName),
    property: address(pages, LABEL.property),
    fees: readFees(pages),
    lenderCredits: located(findValue(pages, LABEL.lenderCredits, lastRight(MONEY, 600)), (s) => {
      const cents = parseMoney(s);
      return cents === undefined ? undefined : Math.abs(cents);
    }),
    receivedDate: receivedDate(pages),
    ...lateCharge(pages),
  };
  const points = terms.fees.find((f) => f.section === 'A' && /\(points\)/i.test(f.name));
  if (points) terms.points = { ...points, value: points.amount };
  const prepaid = terms.fees.find((f) => f.section === 'F' && /prepaid interest/i.test(f.name));
  if (prepaid) terms.prepaidInterest = { ...prepaid, value: prepaid.amount };
  return withoutUndefined(terms);
}

function yesNo(pages: readonly PageLayout[], label: RegExp): Located<boolean> | undefined {
  return located(findValue(pages, label, right(/^(YES|NO|S[IÍ])$/i)), (s) => s.toUpperCase() !== 'NO');
}

/** An empty check box as OCR or a text layer gives it: "[]", "[I", "[J]", "CI", "O", "☐". */
const EMPTY_BOX = /^(?:[[(][^\sxX✓✔®]{0,2}[\])]?|[□☐○◯❍]|[O0o]|C[IJl1])$/;
/** A box glyph OCR joined to its option's word: "[INO", "OFHA", "XYES", "®Conventional". */
const ATTACHED_BOX = /^([[(][^\s\p{Lu}]{0,2}[\])]?|[[(][A-Z][\])]|[□☐○◯O0]|C[IJl1]|[xX✓✔☒☑■●◼®])(?=\p{Lu})/u;

/**
 * Which of a form's options is checked, among `words` (the words right of the option list's label): the
 * option with a check mark before it; or, when OCR made the mark into something else ("m"), the one
 * option with a glyph before it while every other box reads as empty; or the only option printed. None
 * when every box is empty (a blank form), no mark is seen, or the reading is ambiguous.
 */
export function chosenOption(words: readonly string[], option: RegExp): { index: number; text: string } | undefined {
  const found: { index: number; text: string; state: 'checked' | 'empty' | 'unknown' | 'none' }[] = [];
  words.forEach((word, index) => {
    let text = word;
    let box: string | undefined;
    if (!option.test(word)) {
      const m = ATTACHED_BOX.exec(word);
      if (!m || !option.test(word.slice(m[0].length))) return;
      box = m[0];
      text = word.slice(m[0].length);
    } else if (
      index > 0 &&
      words[index - 1]!.length <= 3 &&
      !option.test(words[index - 1]!) &&
      !/^[A-Za-z]{3,}$/.test(words[index - 1]!)
    )
      box = words[index - 1];
    const state =
      box === undefined ? 'none' : CHECK_MARK.test(box) ? 'checked' : EMPTY_BOX.test(box) ? 'empty' : 'unknown';
    found.push({ index, text, state });
  });
  const checked = found.filter((f) => f.state === 'checked');
  if (checked.length === 1) return checked[0];
  if (checked.length > 1) return undefined;
  // OCR read the mark as some other glyph: it counts when every other box reads as empty. A box OCR lost
  // altogether proves nothing (a blank form's boxes are often lost too).
  const open = found.filter((f) => f.state !== 'empty');
  if (open.length === 1 && open[0]!.state === 'unknown') return open[0];
  // A form that prints only the option chosen, without boxes.
  if (found.length === 1 && found[0]!.state === 'none') return found[0];
  return undefined;
}

const LOAN_TYPE_OPTION = new RegExp(
  `^(?:${[...LOAN_TYPES, ...Object.keys(SPANISH_LOAN_TYPES)].join('|')})(?![A-Za-z])`,
  'i',
);

/** The loan type checked, on the label's line or the one below (VA wraps there on the CD). */
function loanType(pages: readonly PageLayout[]): Located<string> | undefined {
  return located(
    findValue(pages, LABEL.loanType, (page, l) => {
      // Words, not phrases: a mark and its option stand closer than a phrase gap ("X Conventional").
      const near = page.words
        .filter((w) => w.x > l.x + l.width - 1 && w.y <= l.y + 3 && w.y >= l.y - 14)
        .sort((a, b) => (Math.abs(a.y - b.y) <= 2 ? a.x - b.x : b.y - a.y));
      const chosen = chosenOption(
        near.map((w) => w.text),
        LOAN_TYPE_OPTION,
      );
      // The option's word, where the value stands (the caption is not the value).
      return chosen ? { ...near[chosen.index]!, text: chosen.text } : undefined;
    }),
    (s) => {
      const t = s.replace(/[^A-Za-z]+$/, '');
      return SPANISH_LOAN_TYPES[t.toLowerCase()] ?? LOAN_TYPES.find((type) => type.toLowerCase() === t.toLowerCase());
    },
  );
}

/**
 * "Loan ID #": the page footers print the ID too ("PAGE 1 OF 5 • LOAN ID # 123456789"). Where the field's
 * text layer runs past its box (a clipped tail), the footer shows what is printed.
 */
function loanId(pages: readonly PageLayout[]): Located<string> | undefined {
  const field = located(findValue(pages, LABEL.loanId, anyRight), (s) =>
    /^[A-Za-z0-9-]*\d[A-Za-z0-9-]*$/.test(s) ? s : undefined,
  );
  const footers = pages.flatMap((p) =>
    [
      ...p.text.matchAll(/(?:LOAN\s?ID\s*#|N\.?\s*[º°*®o]?\s*DEL\s+PR[EÉ]STAMO)\s*([A-Za-z0-9-]*\d[A-Za-z0-9-]*)/gi),
    ].map((m) => {
      const end = m.index + m[0].length;
      return { value: m[1]!, page: p.number, box: p.boxOf(p.spanOf(end - m[1]!.length, end)) };
    }),
  );
  const footer = mostCommon(footers.map((f) => f.value));
  if (field && footer && field.value !== footer && field.value.startsWith(footer)) return { ...field, value: footer };
  // A scan may lose the field's caption ("LOANID®") but not every footer.
  return field ?? footers.find((f) => f.value === footer);
}

function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Projected Payments, first column: "+ 82.35" (or "+ —" for none). */
function mortgageInsurance(pages: readonly PageLayout[]): Located<Cents> | undefined {
  return located(
    findValue(pages, LABEL.mortgageInsurance, (page, l) =>
      page.rightOf(l, { maxX: 360 }).find((i) => /^\$?[\d,]+(?:\.\d{2})?$|^[—–-]$/.test(i.text.trim())),
    ),
    (s) => (/^[—–-]$/.test(s) ? 0 : parseAmount(s)),
  );
}

/** A label's value over several lines (street, then city), joined with ", ", when it reads as an address. */
export function address(pages: readonly PageLayout[], label: RegExp): Located<string> | undefined {
  for (const page of pages) {
    for (const l of page.labels(label)) {
      const first = page.rightOf(l)[0];
      if (!first) continue;
      const column = page.columnBelow(first, l.x, 3);
      const value = streetAddress(column.map((i) => i.text.trim()).join(', '));
      if (value) return placed(value, page, column);
    }
  }
  return undefined;
}

/**
 * "If your payment is more than 15 days late, ... late fee of 5% of the monthly principal and interest
 * payment." A second column may interleave its lines with the sentence, hence the wide gap allowed.
 */
function lateCharge(pages: readonly PageLayout[]): Pick<DisclosureTerms, 'lateChargeGraceDays' | 'lateChargePercent'> {
  for (const page of pages) {
    const text = page.text.replaceAll('\n', ' ');
    const m =
      /more than\s+(\d{1,2})\s+days late.{0,300}?late fee of\s+(\d{1,2}(?:\.\d+)?)\s?%/dis.exec(text) ??
      /retraso de m[aá]s de\s+(\d{1,2})\s+d[ií]as.{0,300}?recargo de\s+(\d{1,2}(?:\.\d+)?)\s?%/dis.exec(text);
    // A grace period past 45 days or a fee over 10% is a misreading ("75 days" for 15), not a term.
    const [days, percent] = m ? [Number(m[1]), Number(m[2])] : [];
    if (m?.indices && days! >= 1 && days! <= MAX_GRACE_DAYS && percent! > 0 && percent! <= MAX_LATE_FEE_PERCENT) {
      // The text's lines are joined by one character, as spanOf counts them.
      const at = (group: number) => page.boxOf(page.spanOf(...m.indices![group]!));
      return {
        lateChargeGraceDays: { value: days!, page: page.number, box: at(1) },
        lateChargePercent: { value: Number((percent! / 100).toFixed(9)), page: page.number, box: at(2) },
      };
    }
  }
  return {};
}

/** The date written just above "Applicant Signature" when the consumer signed Confirm Receipt. */
function receivedDate(pages: readonly PageLayout[]): Located<string> | undefined {
  for (const page of pages) {
    const label = page.label(LABEL.applicantSignature);
    if (!label) continue;
    const date = page.items.find((i) => i.y > label.y + 2 && i.y < label.y + 24 && US_DATE.test(i.text.trim()));
    const value = date && parseDate(date.text);
    if (date && value) return placed(value, page, date);
  }
  return undefined;
}

const SECTION_HEADER = /^([A-H])\.\s+\S/;
/** Any lettered line of the cost tables (D, I, J are totals): where a section's rows end. */
const TABLE_LINE = /^[A-L]\.\s+\S/;

/**
 * Fee lines of the cost tables: rows under a section header ("A. Origination Charges") in the header's
 * column, each with its borrower-paid amount on the same line. The CD splits borrower-paid into at
 * closing and before closing (summed) and prints seller-paid and paid-by-others columns right of them.
 */
export function readFees(pages: readonly PageLayout[]): FeeLine[] {
  const fees: FeeLine[] = [];
  for (const page of pages) {
    // In section order: the tables stand in two columns, and lines are read across both.
    const headers = page.items
      .filter((i) => SECTION_HEADER.test(i.text.trim()))
      .sort((a, b) => a.text.trim().localeCompare(b.text.trim()));
    if (headers.length === 0) continue;
    const boundaries = page.items.filter((i) => TABLE_LINE.test(i.text.trim()));
    const sellerPaid = page.label(/^seller-paid$/i);
    for (const header of headers) {
      const section = SECTION_HEADER.exec(header.text.trim())![1] as FeeLine['section'] | 'D';
      if (section === 'D') continue;
      // The table ends at the next header of its column; a table to the right starts a column boundary.
      const below = boundaries
        .filter((h) => Math.abs(h.x - header.x) < 4 && h.y < header.y)
        .sort((a, b) => b.y - a.y)[0];
      const bottom = below?.y ?? -Infinity;
      const rightTable = headers.filter((h) => h.x > header.x + 100).sort((a, b) => a.x - b.x)[0];
      const maxX = rightTable ? rightTable.x - 1 : sellerPaid ? sellerPaid.x - 20 : Infinity;
      const rows = page.items.filter(
        (i) =>
          i.y < header.y - 1 &&
          i.y > bottom + 1 &&
          i.x >= header.x - 2 &&
          i.x < header.x + 20 &&
          /[A-Za-z]/.test(i.text) &&
          !TABLE_LINE.test(i.text.trim()),
      );
      for (const row of rows) {
        const cells = page
          .rightOf(row, { maxX, tolerance: 1.5 })
          .filter((i) => i.x > header.x + 150 && MONEY.test(i.text.trim()));
        if (cells.length === 0) continue;
        const amount = cells.reduce((s, i) => s + (parseMoney(i.text) ?? 0), 0);
        fees.push({
          section,
          name: row.text.trim().replace(/^\d{2}\s+/, ''),
          amount,
          page: page.number,
          box: page.boxOf(cells),
        });
      }
    }
  }
  return fees;
}
