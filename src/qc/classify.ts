// Document classes and a first classifier that reads the titles printed on a document's first pages.
// The QC engine refines it (splitting multi-document PDFs, OCR for images); the classes stay these.

export const DOCUMENT_CLASSES = [
  'closing_disclosure',
  'loan_estimate',
  'note',
  'security_instrument',
  'urla',
  'appraisal',
  'pay_stub',
  'w2',
  'bank_statement',
  'credit_report',
  'other',
] as const;
export type DocumentClass = (typeof DOCUMENT_CLASSES)[number];

/** Documents that make a package a loan package: without one the review waits for documents (DECISIONS 6). */
export const PRIMARY_CLASSES: ReadonlySet<DocumentClass> = new Set(['closing_disclosure', 'loan_estimate', 'note']);

export const CLASS_NAMES: Record<DocumentClass, string> = {
  closing_disclosure: 'Closing Disclosure',
  loan_estimate: 'Loan Estimate',
  note: 'Note',
  security_instrument: 'security instrument (Deed of Trust / Mortgage)',
  urla: 'loan application (URLA)',
  appraisal: 'appraisal (1004/URAR)',
  pay_stub: 'pay stub',
  w2: 'W-2',
  bank_statement: 'bank statement',
  credit_report: 'credit report',
  other: 'unclassified document',
};

// Titles as the forms print them, each on a line of its own: prose that mentions a form ("See your note
// and security instrument") is never a title. An optional form-number prefix is allowed ("Form 1003").
const TITLES: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /^closing disclosure$/i],
  ['loan_estimate', /^loan estimate$/i],
  ['urla', /^(?:form 1003\s+)?uniform residential loan application$/i],
  ['appraisal', /^(?:form 1004\s+)?uniform residential appraisal report$/i],
  ['note', /^(?:(?:adjustable|fixed|balloon)\s+rate\s+)?(?:promissory\s+)?note$/i],
  ['security_instrument', /^(?:deed of trust|mortgage|security deed|open-end mortgage)$/i],
  ['w2', /^(?:form\s+)?w-2(?:\s+wage and tax statement)?(?:\s+\d{4})?$|^wage and tax statement(?:\s+\d{4})?$/i],
  ['pay_stub', /^(?:earnings statement|pay ?stub|pay statement|payroll statement)$/i],
  ['bank_statement', /^(?:[a-z]+ )?(?:bank|account|checking|savings) statement$/i],
  ['credit_report', /^(?:[a-z-]+ )*credit report$/i],
];

/** Lines from the top of a page where a title may stand; a cover sheet's title sits lower (CFPB samples). */
const TITLE_LINES = 8;

/** The running footers of the integrated disclosures: "LOAN ESTIMATE  PAGE 2 OF 3 • LOAN ID # ...". */
const FOOTERS: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /^CLOSING DISCLOSURE\b/],
  ['loan_estimate', /^LOAN ESTIMATE\b/],
];

/** "Page 2 of 5", "PAGE 2 OF 5": the document's own page numbering. */
export function pageFooter(lines: readonly string[]): { index: number; of: number } | undefined {
  for (const line of lines.slice(-4).reverse()) {
    const m = /\bpage\s+(\d{1,4})\s+of\s+(\d{1,4})\b/i.exec(line);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2])) return { index: Number(m[1]), of: Number(m[2]) };
  }
  return undefined;
}

/** The class a page announces by a title near its top or a form footer at its foot; null when none. */
export function pageClass(lines: readonly string[]): DocumentClass | null {
  for (const line of lines.slice(0, TITLE_LINES)) {
    const text = line.trim();
    for (const [cls, title] of TITLES) if (title.test(text)) return cls;
  }
  for (const line of lines.slice(-3)) {
    for (const [cls, footer] of FOOTERS) if (footer.test(line.trim())) return cls;
  }
  return null;
}

// When no page carries a title (an excerpt of a form behind a cover sheet that names it), the first
// form named by its full name on the leading pages decides. Only unambiguous form names count here.
const FORM_NAMES: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /closing\s+disclosure/i],
  ['loan_estimate', /loan\s+estimate/i],
  ['urla', /uniform\s+residential\s+loan\s+application/i],
  ['appraisal', /uniform\s+residential\s+appraisal\s+report/i],
  ['security_instrument', /deed\s+of\s+trust/i],
  ['w2', /wage\s+and\s+tax\s+statement/i],
  ['pay_stub', /earnings\s+statement/i],
  ['credit_report', /credit\s+report/i],
];
const MENTION_PAGES = 3;

function mentionedForm(pages: readonly (readonly string[])[]): DocumentClass | undefined {
  const text = pages.map((lines) => lines.join('\n')).join('\n');
  let best: { cls: DocumentClass; at: number } | undefined;
  for (const [cls, name] of FORM_NAMES) {
    const at = text.search(name);
    if (at >= 0 && (!best || at < best.at)) best = { cls, at };
  }
  return best?.cls;
}

export interface DocumentRun {
  documentClass: DocumentClass;
  /** Indexes into the file's pages. */
  pages: number[];
}

/**
 * Splits a file's pages into logical documents. A page starts a new document when it announces another
 * class, or when its own "Page 1 of n" restarts the numbering of one; pages announcing nothing continue
 * the document before them. Leading pages before the first title (a cover or fax sheet) belong to the
 * first document; a file that announces nothing is one document of class `other`.
 */
export function splitDocuments(pages: readonly (readonly string[])[]): DocumentRun[] {
  const runs: DocumentRun[] = [];
  let leading: number[] = [];
  pages.forEach((lines, index) => {
    const cls = pageClass(lines);
    const current = runs.at(-1);
    const restarts = pageFooter(lines)?.index === 1 && current !== undefined && current.pages.length > 0 && cls === current.documentClass;
    if (cls !== null && (current === undefined || cls !== current.documentClass || restarts)) {
      runs.push({ documentClass: cls, pages: [...leading, index] });
      leading = [];
    } else if (current) current.pages.push(index);
    else leading.push(index);
  });
  if (runs.length === 0) return [{ documentClass: mentionedForm(pages.slice(0, MENTION_PAGES)) ?? 'other', pages: leading }];
  return runs;
}
