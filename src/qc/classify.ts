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

// Titles as the forms print them. Case matters where a word is also ordinary prose ("Note:", "mortgage").
const TITLES: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /closing\s+disclosure/i],
  ['loan_estimate', /loan\s+estimate/i],
  ['urla', /uniform\s+residential\s+loan\s+application/i],
  ['appraisal', /uniform\s+residential\s+appraisal\s+report/i],
  ['note', /promissory\s+note|^\s*(?:(?:ADJUSTABLE|FIXED)\s+RATE\s+)?NOTE\s*$/m],
  ['security_instrument', /deed\s+of\s+trust|security\s+instrument|^\s*MORTGAGE\s*$/im],
  ['w2', /wage\s+and\s+tax\s+statement|^\s*(?:form\s+)?W-2\b/im],
  ['pay_stub', /pay\s*stub|earnings\s+statement|pay\s+statement/i],
  ['bank_statement', /bank\s+statement|statement\s+period/i],
  ['credit_report', /credit\s+report/i],
];

/** How many leading pages carry the title: a cover sheet may come first. */
const TITLE_PAGES = 3;

/** The class whose title appears first on the document's leading pages; `other` when none does. */
export function classifyByTitle(pages: readonly string[]): DocumentClass {
  const head = pages.slice(0, TITLE_PAGES).join('\n');
  let best: { cls: DocumentClass; at: number } | undefined;
  for (const [cls, title] of TITLES) {
    const at = head.search(title);
    if (at >= 0 && (!best || at < best.at)) best = { cls, at };
  }
  return best?.cls ?? 'other';
}
