// How rules find their inputs in a loan file and cite them in a summary: "Closing Disclosure (cd.pdf,
// p.5)", "$118,830.27", "4.174%". One wording for every rule family.
import { CLASS_NAMES, type DocumentClass } from '../classify.js';
import type { Cents, DocumentOf, IsoDate, Located, LoanDocument, LoanFile, Rate } from '../fields.js';
import type { Evidence } from '../finding.js';

const SHORT_NAMES: Record<DocumentClass, string> = {
  ...CLASS_NAMES,
  security_instrument: 'Security instrument',
  urla: 'URLA',
  appraisal: 'Appraisal',
  pay_stub: 'Pay stub',
  bank_statement: 'Bank statement',
  credit_report: 'Credit report',
  settlement_statement: 'Settlement statement',
  tax_return: 'Tax return',
  affidavit: 'Affidavit',
  service_provider_list: 'Service provider list',
};

/** "Closing Disclosure", "Pay stub": a document class as a heading or a table cell names it. */
export function shortName(cls: DocumentClass): string {
  return SHORT_NAMES[cls];
}

export function documentsOf<C extends DocumentClass>(loan: LoanFile, cls: C): DocumentOf<C>[] {
  return loan.documents.filter((d): d is DocumentOf<C> => d.documentClass === cls);
}

/**
 * Where a value of a document was printed: the file as uploaded and the page in it; without a value, the
 * document's first page.
 */
function placeOf(doc: LoanDocument, at?: Located<unknown>): { file: string; page: number | undefined } {
  if (at) return { file: at.file ?? doc.filename, page: at.page };
  return { file: doc.pages[0]?.file ?? doc.filename, page: doc.pages[0]?.number };
}

/** "Closing Disclosure (cd.pdf, p.5)"; without a value, the document's first page. */
export function cite(doc: LoanDocument, at?: Located<unknown>): string {
  const { file, page } = placeOf(doc, at);
  return `${SHORT_NAMES[doc.documentClass]} (${file}${page === undefined ? '' : `, p.${page}`})`;
}

/**
 * A value a finding rests on, as its summary shows it (`value`: "$162,000.00"; null when the field was
 * looked for and not read), under its snake_case name, where it was printed; without `at`, the
 * document's first page (for a value that is missing from it).
 */
export function evidenceOf(
  doc: LoanDocument,
  field: string,
  at: Located<unknown> | undefined,
  value: string | null,
): Evidence {
  const { file, page } = placeOf(doc, at);
  const evidence: Evidence = { document: file, page: page ?? 1, field, value };
  if (at?.box) evidence.box = at.box;
  return evidence;
}

/**
 * The final Closing Disclosure: the dated one issued last (the last of them when dates tie). An undated
 * CD is a fragment (a receipt page sent on its own) unless no CD is dated.
 */
export function finalClosingDisclosure(loan: LoanFile): DocumentOf<'closing_disclosure'> | undefined {
  const all = documentsOf(loan, 'closing_disclosure');
  const dated = all.filter((d) => d.fields.dateIssued !== undefined);
  return latestIssued(dated.length > 0 ? dated : all);
}

/** Documents with a `dateIssued`, ordered by it (stable for ties), then those without one. */
export function byDateIssued<D extends DocumentOf<'closing_disclosure' | 'loan_estimate'>>(docs: readonly D[]): D[] {
  return [...docs].sort((a, b) =>
    (a.fields.dateIssued?.value ?? '\uffff').localeCompare(b.fields.dateIssued?.value ?? '\uffff'),
  );
}

export function latestIssued<D extends DocumentOf<'closing_disclosure' | 'loan_estimate'>>(
  docs: readonly D[],
): D | undefined {
  return byDateIssued(docs).at(-1);
}

/** Consummation: the final CD's closing date (RULES.md reads "closing date" and "consummation" as one). */
export function consummationDate(loan: LoanFile): Located<IsoDate> | undefined {
  return finalClosingDisclosure(loan)?.fields.closingDate;
}

export function formatMoney(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** 0.04174 → "4.174%": up to three decimals, as disclosures print rates. */
export function formatRate(rate: Rate, decimals = 3): string {
  return `${Number((rate * 100).toFixed(decimals))}%`;
}

/** Dates are values (extract/values.ts); rules take the day count from here with the rest of their wording. */
export { daysBetween } from '../extract/values.js';

/** "a", "a and b", "a, b and c": how a summary lists documents or values. */
export function listOf(items: readonly string[], most = 20): string {
  // A summary stays a sentence: a crafted "Page 1 of 9999" must not list 9,998 pages.
  if (items.length > most) return `${items.slice(0, most).join(', ')} and ${items.length - most} more`;
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "a; b; c": clauses that carry commas of their own, at most `most` of them, as listOf. */
export function clausesOf(items: readonly string[], most = 20): string {
  if (items.length > most) return `${items.slice(0, most).join('; ')}; and ${items.length - most} more`;
  return items.join('; ');
}

/** A page of a document to cite when no extracted value stands on it. */
export function pageOf(page: number, file?: string): Located<null> {
  return file === undefined ? { value: null, page } : { value: null, page, file };
}

/**
 * A percentage with one decimal, or as many more as it takes not to read as the limit it is compared
 * with: 97.04 against 97 is "97.04%", not "97.0%".
 */
export function formatPercent(percent: number, limit: number): string {
  for (let decimals = 1; decimals < 4; decimals++) {
    const shown = percent.toFixed(decimals);
    if (Number(shown) !== limit) return `${shown}%`;
  }
  return `${percent.toFixed(4)}%`;
}
