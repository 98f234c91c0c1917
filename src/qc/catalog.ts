// The mortgage_v1 rule catalog (RULES.md): each rule's code, severity, category, fixed title and what it
// checks. The rule modules under rules/ implement the checks; the README's catalog is generated from here.
import type { Evidence, Finding } from './finding.js';
import type { LoanFile } from './fields.js';

export const CATEGORIES = ['compliance', 'documentation', 'consistency', 'income', 'collateral'] as const;
export type Category = (typeof CATEGORIES)[number];
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface RuleSpec {
  code: string;
  severity: Severity;
  category: Category;
  title: string;
  /**
   * The provision a finding of the rule applies (Regulation Z, 12 CFR 1026, as RULES.md cites it); null
   * where the check is of the file's completeness or agreement rather than of a regulation. A hit may name
   * a narrower one (DOC-001 for a missing Loan Estimate, APR-001 for an irregular transaction).
   */
  regulation: string | null;
  check: string;
}

export const CATALOG = [
  {
    code: 'DOC-001',
    severity: 'critical',
    category: 'documentation',
    title: 'Core document missing',
    regulation: null,
    check:
      'A core document is missing: Note, security instrument (Deed of Trust / Mortgage), final ' +
      'Closing Disclosure, Loan Estimate, or loan application (URLA). One issue per missing type.',
  },
  {
    code: 'DOC-002',
    severity: 'high',
    category: 'documentation',
    title: 'Appraisal missing',
    regulation: null,
    check: 'No appraisal (1004/URAR) in the package.',
  },
  {
    code: 'DOC-003',
    severity: 'high',
    category: 'documentation',
    title: 'Income documentation missing',
    regulation: '12 CFR 1026.43(c)(4)',
    check: 'Wage-earner income with no pay stub or W-2.',
  },
  {
    code: 'DOC-004',
    severity: 'medium',
    category: 'documentation',
    title: 'Bank statements incomplete',
    regulation: null,
    check: 'Fewer than two consecutive monthly bank statements.',
  },
  {
    code: 'DOC-005',
    severity: 'high',
    category: 'documentation',
    title: 'Signature missing',
    regulation: null,
    check: 'Note or security instrument signature line appears unsigned.',
  },
  {
    code: 'DOC-006',
    severity: 'medium',
    category: 'documentation',
    title: 'Illegible page',
    regulation: null,
    check: 'A page is illegible: no text layer and OCR confidence below the threshold.',
  },
  {
    code: 'DOC-007',
    severity: 'medium',
    category: 'documentation',
    title: 'Pages missing',
    regulation: null,
    check: 'Pages missing according to "Page x of y" footers.',
  },
  {
    code: 'DOC-008',
    severity: 'medium',
    category: 'documentation',
    title: 'Stale document',
    regulation: null,
    check: 'Pay stub, bank statement or credit report older than 120 days at the closing date.',
  },
  {
    code: 'DOC-009',
    severity: 'low',
    category: 'documentation',
    title: 'Document not classified',
    regulation: null,
    check: 'Document could not be classified (listed by filename).',
  },
  {
    code: 'DOC-010',
    severity: 'high',
    category: 'consistency',
    title: 'Borrower name mismatch',
    regulation: null,
    check: 'Borrower name differs between Note, CD and URLA (after normalising case, punctuation, middle initials).',
  },
  {
    code: 'DOC-011',
    severity: 'high',
    category: 'consistency',
    title: 'Property address mismatch',
    regulation: null,
    check: 'Property address differs between Note, security instrument, CD and appraisal.',
  },
  {
    code: 'DOC-012',
    severity: 'high',
    category: 'consistency',
    title: 'Conflicting Closing Disclosures',
    regulation: null,
    check: 'Two Closing Disclosures disagree on loan terms and neither is dated later.',
  },
  {
    code: 'DOC-013',
    severity: 'medium',
    category: 'consistency',
    title: 'Loan application contradicts itself',
    regulation: null,
    check:
      'The URLA contradicts itself: a section marked "Does not apply" is filled in, or a stated total is not the sum of its components.',
  },
  {
    code: 'APR-001',
    severity: 'critical',
    category: 'compliance',
    title: 'APR outside tolerance',
    regulation: '12 CFR 1026.22(a)(2)',
    check:
      'Recomputed Appendix J APR differs from the disclosed CD APR by more than the tolerance ' +
      '(0.125; 0.25 irregular), unless the 1026.22(a)(4) finance-charge exception applies.',
  },
  {
    code: 'APR-002',
    severity: 'critical',
    category: 'compliance',
    title: 'Finance charge understated',
    regulation: '12 CFR 1026.18(d)(1)',
    check: 'Disclosed finance charge understated by more than $100 against the recomputed one.',
  },
  {
    code: 'APR-003',
    severity: 'high',
    category: 'compliance',
    title: 'Total of Payments understated',
    regulation: '12 CFR 1026.38(o)(1)',
    check: 'Disclosed Total of Payments understated by more than $100.',
  },
  {
    code: 'APR-004',
    severity: 'medium',
    category: 'compliance',
    title: 'TIP inaccurate',
    regulation: '12 CFR 1026.38(o)(5)',
    check: 'TIP differs from the recomputed TIP by more than 0.01 percentage point.',
  },
  {
    code: 'APR-005',
    severity: 'medium',
    category: 'compliance',
    title: 'Amount Financed inconsistent',
    regulation: '12 CFR 1026.38(o)(3)',
    check: 'Amount Financed inconsistent with Loan Amount minus prepaid finance charges by more than $100.',
  },
  {
    code: 'APR-006',
    severity: 'high',
    category: 'compliance',
    title: 'APR missing or implausible',
    regulation: '12 CFR 1026.38(o)(4)',
    check: 'APR missing, or below the note rate while finance charges exist.',
  },
  {
    code: 'TRD-001',
    severity: 'high',
    category: 'compliance',
    title: 'Loan Estimate late',
    regulation: '12 CFR 1026.19(e)(1)(iii)(A)',
    check: 'Loan Estimate issued more than 3 general business days after the application date.',
  },
  {
    code: 'TRD-002',
    severity: 'critical',
    category: 'compliance',
    title: 'Closing Disclosure waiting period',
    regulation: '12 CFR 1026.19(f)(1)(ii)',
    check:
      'Closing Disclosure received fewer than 3 specific business days before consummation (signed ' +
      'receipt date, else issue date + mailbox rule).',
  },
  {
    code: 'TRD-003',
    severity: 'high',
    category: 'compliance',
    title: 'Loan Estimate waiting period',
    regulation: '12 CFR 1026.19(e)(1)(iii)(B)',
    check: 'Initial Loan Estimate issued fewer than 7 specific business days before consummation.',
  },
  {
    code: 'TRD-004',
    severity: 'high',
    category: 'compliance',
    title: 'Revised Loan Estimate timing',
    regulation: '12 CFR 1026.19(e)(4)(ii)',
    check: 'Revised Loan Estimate received fewer than 4 business days before consummation or on/after the first CD.',
  },
  {
    code: 'TRD-005',
    severity: 'critical',
    category: 'compliance',
    title: 'New waiting period not observed',
    regulation: '12 CFR 1026.19(f)(2)(ii)',
    check:
      'A later CD changes APR beyond tolerance, the product, or adds a prepayment penalty without a new 3-day wait.',
  },
  {
    code: 'TRD-006',
    severity: 'critical',
    category: 'compliance',
    title: 'Zero-tolerance fee increased',
    regulation: '12 CFR 1026.19(e)(3)(i)',
    check: 'Zero-tolerance fee increased (or lender credit decreased) from LE to CD without a cure.',
  },
  {
    code: 'TRD-007',
    severity: 'high',
    category: 'compliance',
    title: '10% tolerance exceeded',
    regulation: '12 CFR 1026.19(e)(3)(ii)',
    check: '10%-bucket fees on the CD exceed 110% of the LE total without a cure.',
  },
  {
    code: 'TRD-008',
    severity: 'medium',
    category: 'compliance',
    title: 'Tolerance cure insufficient',
    regulation: '12 CFR 1026.19(f)(2)(v)',
    check:
      'A tolerance excess exists but the CD\'s "exceeds legal limits" amount / lender credit is missing or too small.',
  },
  {
    code: 'TRD-009',
    severity: 'low',
    category: 'compliance',
    title: 'Rate lock expired',
    regulation: '12 CFR 1026.19(e)(3)(iv)(D)',
    check: 'Rate lock on the LE expired before the closing date with no revised LE.',
  },
  {
    code: 'NTE-001',
    severity: 'critical',
    category: 'consistency',
    title: 'Note principal mismatch',
    regulation: '12 CFR 1026.17(c)(1)',
    check: 'Note principal differs from the CD Loan Amount.',
  },
  {
    code: 'NTE-002',
    severity: 'critical',
    category: 'consistency',
    title: 'Note rate mismatch',
    regulation: '12 CFR 1026.17(c)(1)',
    check: 'Note interest rate differs from the CD Interest Rate.',
  },
  {
    code: 'NTE-003',
    severity: 'high',
    category: 'consistency',
    title: 'Monthly payment miscalculated',
    regulation: null,
    check: 'Disclosed monthly P&I differs from the amortization formula by more than $0.02 (Note or CD).',
  },
  {
    code: 'NTE-004',
    severity: 'high',
    category: 'consistency',
    title: 'Note term mismatch',
    regulation: '12 CFR 1026.17(c)(1)',
    check: 'Note term/maturity or prepayment-penalty term differs from the CD.',
  },
  {
    code: 'NTE-005',
    severity: 'medium',
    category: 'consistency',
    title: 'Late charge mismatch',
    regulation: '12 CFR 1026.17(c)(1)',
    check: 'Late charge percentage or grace days differ between Note and CD.',
  },
  {
    code: 'INC-001',
    severity: 'high',
    category: 'income',
    title: 'Income mismatch',
    regulation: '12 CFR 1026.43(c)(4)',
    check: 'Monthly income from pay stubs differs from the URLA monthly income by more than 5%.',
  },
  {
    code: 'INC-002',
    severity: 'medium',
    category: 'income',
    title: 'Declining income',
    regulation: '12 CFR 1026.43(c)(2)(i)',
    check: 'Year-to-date income annualised is below 80% of the prior-year W-2 (declining income).',
  },
  {
    code: 'INC-003',
    severity: 'medium',
    category: 'income',
    title: 'Employer mismatch',
    regulation: '12 CFR 1026.43(c)(2)(ii)',
    check: 'Employer name differs across URLA, pay stub and W-2.',
  },
  {
    code: 'INC-004',
    severity: 'high',
    category: 'income',
    title: 'Stated income conflicts with pay stubs',
    regulation: '12 CFR 1026.43(c)(4)',
    check: "Income stated in an affidavit differs from the same person's pay-stub monthly income by more than 5%.",
  },
  {
    code: 'QMF-001',
    severity: 'high',
    category: 'compliance',
    title: 'QM points and fees exceeded',
    regulation: '12 CFR 1026.43(e)(3)',
    check: 'Points and fees exceed the QM limit for the loan amount tier.',
  },
  {
    code: 'COL-001',
    severity: 'high',
    category: 'collateral',
    title: 'Loan-to-value',
    regulation: null,
    check: 'Appraised value missing, or loan-to-value above 97% (purchase) from CD loan amount and appraisal value.',
  },
  {
    code: 'COL-002',
    severity: 'medium',
    category: 'collateral',
    title: 'Appraisal stale',
    regulation: null,
    check: 'Appraisal effective date more than 120 days before the closing date.',
  },
] as const satisfies readonly RuleSpec[];

export type RuleCode = (typeof CATALOG)[number]['code'];

/** What a rule reports: the subject it is about (part of the finding key) and the summary sentence. */
export interface RuleHit {
  /** Distinguishes several findings of one rule (`closing_disclosure`, a filename); omitted when one at most. */
  subject?: string;
  summary: string;
  /** The values the summary cites, where they were printed (rules/evidence.ts `evidenceOf`). */
  evidence?: Evidence[];
  /** A narrower provision than the rule's own (RuleSpec.regulation). */
  regulation?: string | null;
}

/** Settings the rules read (the thresholds docs/rules.md states); fixed for mortgage_v1. */
export interface RuleContext {
  /** OCR mean confidence below which a page without a text layer is illegible (DOC-006). */
  ocrConfidenceThreshold: number;
}

export const DEFAULT_RULE_CONTEXT: RuleContext = { ocrConfidenceThreshold: 60 };

export interface Rule {
  code: RuleCode;
  check(loan: LoanFile, context: RuleContext): RuleHit[];
}

export function specOf(code: RuleCode): RuleSpec {
  const spec = CATALOG.find((r) => r.code === code);
  if (!spec) throw new Error(`unknown rule ${code}`);
  return spec;
}

/** A rule's regulation by its code; null for a code outside the catalog (the sandbox's samples). */
export function regulationOf(code: string): string | null {
  return (CATALOG as readonly RuleSpec[]).find((r) => r.code === code)?.regulation ?? null;
}

/**
 * Evidence items one finding lists at most, as many as a summary lists (rules/evidence.ts listOf): a
 * finding about every page of a 5,000-page scan stays a report entry, not a dump. Its summary still
 * says how many there were.
 */
export const MAX_EVIDENCE = 20;

/** A rule's hit as a finding of the report. */
export function findingOf(code: RuleCode, hit: RuleHit): Finding {
  const { severity, category, title, regulation } = specOf(code);
  return {
    key: hit.subject ? `${code}:${hit.subject}` : code,
    code,
    severity,
    category,
    title,
    summary: hit.summary,
    evidence: (hit.evidence ?? []).slice(0, MAX_EVIDENCE),
    regulation: hit.regulation === undefined ? regulation : hit.regulation,
  };
}

/** The catalog as the README's Markdown table (scripts/rule-catalog.ts writes it; a test keeps it true). */
export function catalogMarkdown(): string {
  const rows = CATALOG.map(
    (r: RuleSpec) =>
      `| \`${r.code}\` | ${r.severity} | ${r.category} | ${r.title} | ` +
      `${r.check.replaceAll('|', '\\|')} | ${r.regulation ?? '—'} |`,
  );
  return ['| code | severity | category | title | check | regulation |', '|---|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

export const CATALOG_MARKERS = {
  start: '<!-- rule-catalog:start (generated by npm run docs:generate) -->',
  end: '<!-- rule-catalog:end -->',
};
