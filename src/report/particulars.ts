// What page 1 of a report says about the loan and the package, as the analysis read them: the loan at a
// glance (each value with the document and page it was printed on) and the files reviewed. Worked out
// by the analysis and stored with its release draft (the render reads it; workflow history holds ids).
import { z } from 'zod';
import type { Analysis } from '../qc/analyse.js';
import type { Located, LoanDocument } from '../qc/fields.js';
import {
  documentsOf,
  finalClosingDisclosure,
  formatMoney,
  formatRate,
  latestIssued,
  shortName,
} from '../qc/rules/evidence.js';
import { formatDay } from './wording.js';

export const GlanceItemSchema = z.object({
  label: z.string(),
  /** As a person reads it: "$162,000.00", "3.875%", "30 years", "15 April 2013". */
  value: z.string(),
  /** The file as uploaded and the page in it. */
  document: z.string(),
  page: z.number().int().positive(),
});
export type GlanceItem = z.infer<typeof GlanceItemSchema>;

export const ReviewedFileSchema = z.object({
  file: z.string(),
  /** The kinds of document found in it, in page order, in words ("Closing Disclosure", "Pay stub"). */
  found: z.array(z.string()),
  pages: z.number().int().nonnegative(),
  /** Why it could not be read; null when it was. */
  unreadable: z.string().nullable(),
});
export type ReviewedFile = z.infer<typeof ReviewedFileSchema>;

export const ParticularsSchema = z.object({
  glance: z.array(GlanceItemSchema),
  documents: z.array(ReviewedFileSchema),
});
export type Particulars = z.infer<typeof ParticularsSchema>;

/** The facts page 1 shows, in order. */
export const GLANCE_LABELS = [
  'Borrower',
  'Property',
  'Loan amount',
  'Interest rate',
  'Loan term',
  'Closing date',
  'Lender',
] as const;
type GlanceLabel = (typeof GLANCE_LABELS)[number];

/** One candidate source of a fact: a document and the value it printed, formatted. */
type Candidate = { doc: LoanDocument; at: Located<unknown>; show: string };

function candidates(analysis: Pick<Analysis, 'loan'>): Record<GlanceLabel, Candidate[]> {
  const { loan } = analysis;
  // The disclosures that bind: the final Closing Disclosure, then the last Loan Estimate issued.
  const cd = finalClosingDisclosure(loan);
  const le = latestIssued(documentsOf(loan, 'loan_estimate'));
  const notes = documentsOf(loan, 'note');
  const instruments = documentsOf(loan, 'security_instrument');
  const urlas = documentsOf(loan, 'urla');
  const appraisals = documentsOf(loan, 'appraisal');
  const settlements = documentsOf(loan, 'settlement_statement');
  const of = <T>(doc: LoanDocument | undefined, at: Located<T> | undefined, format: (v: T) => string): Candidate[] =>
    doc && at ? [{ doc, at, show: format(at.value) }] : [];
  const text = (v: string) => v.replace(/\s+/g, ' ').trim();
  const months = (m: number) => (m % 12 === 0 ? `${m / 12} years` : `${m} months`);
  return {
    Borrower: [
      ...of(cd, cd?.fields.borrower, text),
      ...of(le, le?.fields.borrower, text),
      ...notes.flatMap((d) => of(d, d.fields.borrower, text)),
      ...instruments.flatMap((d) => of(d, d.fields.borrower, text)),
      ...urlas.flatMap((d) => of(d, d.fields.borrower, text)),
    ],
    Property: [
      ...of(cd, cd?.fields.property, text),
      ...of(le, le?.fields.property, text),
      ...notes.flatMap((d) => of(d, d.fields.property, text)),
      ...instruments.flatMap((d) => of(d, d.fields.property, text)),
      ...appraisals.flatMap((d) => of(d, d.fields.property, text)),
    ],
    'Loan amount': [
      ...of(cd, cd?.fields.loanAmount, formatMoney),
      ...notes.flatMap((d) => of(d, d.fields.principal, formatMoney)),
      ...of(le, le?.fields.loanAmount, formatMoney),
      ...settlements.flatMap((d) => of(d, d.fields.loanAmount, formatMoney)),
    ],
    'Interest rate': [
      ...of(cd, cd?.fields.interestRate, (r) => formatRate(r)),
      ...notes.flatMap((d) => of(d, d.fields.interestRate, (r) => formatRate(r))),
      ...of(le, le?.fields.interestRate, (r) => formatRate(r)),
    ],
    'Loan term': [...of(cd, cd?.fields.loanTermMonths, months), ...of(le, le?.fields.loanTermMonths, months)],
    'Closing date': [
      ...of(cd, cd?.fields.closingDate, formatDay),
      ...settlements.flatMap((d) => of(d, d.fields.settlementDate, formatDay)),
    ],
    Lender: [...of(cd, cd?.fields.lender, text), ...of(le, le?.fields.lender, text)],
  };
}

/**
 * Page 1's particulars of an analysis. Each fact comes from the document that binds it (the final
 * Closing Disclosure first, then the Note, the last Loan Estimate, the rest); a fact no document
 * printed is left out, and page 1 says it was not found.
 */
export function particularsOf(analysis: Pick<Analysis, 'loan' | 'documents'>): Particulars {
  const sources = candidates(analysis);
  const glance: GlanceItem[] = [];
  for (const label of GLANCE_LABELS) {
    const first = sources[label].find((c) => c.show !== '');
    if (!first) continue;
    glance.push({ label, value: first.show, document: first.at.file ?? first.doc.filename, page: first.at.page });
  }
  const documents = analysis.documents.map((f) => ({
    file: f.filename,
    found: [...new Set(f.classes.map(shortName))],
    pages: f.pages,
    unreadable: f.unreadable,
  }));
  return { glance, documents };
}
