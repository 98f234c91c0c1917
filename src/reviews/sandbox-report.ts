// The canned report every sandbox review gets (RULES.md, "Sandbox canned report"): one sample issue per
// severity, clearly marked as sample data, identical for every sandbox review. Its evidence names sample
// files, not the uploaded ones, so that an integrator's code sees every field of an issue filled.
import type { Finding } from '../qc/finding.js';

const NOT_YOURS = 'It does not describe the documents you uploaded.';

export const SANDBOX_FINDINGS: readonly Finding[] = [
  {
    key: 'SAMPLE-001',
    code: 'SAMPLE-001',
    severity: 'critical',
    category: 'compliance',
    title: 'Sample: APR outside tolerance',
    summary:
      `Sample data: a disclosed APR of 6.125% against a computed 6.500% (difference 0.375, ` +
      `tolerance 0.125). ${NOT_YOURS}`,
    evidence: [{ document: 'sample-closing-disclosure.pdf', page: 5, field: 'apr', value: '6.125%' }],
    regulation: '12 CFR 1026.22(a)(2)',
  },
  {
    key: 'SAMPLE-002',
    code: 'SAMPLE-002',
    severity: 'high',
    category: 'documentation',
    title: 'Sample: Closing Disclosure missing',
    summary: `Sample data: no Closing Disclosure was found in the package. ${NOT_YOURS}`,
    evidence: [],
    regulation: '12 CFR 1026.19(f)(1)(i)',
  },
  {
    key: 'SAMPLE-003',
    code: 'SAMPLE-003',
    severity: 'medium',
    category: 'compliance',
    title: 'Sample: Loan Estimate delivered late',
    summary: `Sample data: the Loan Estimate was issued 4 business days after application (limit 3). ${NOT_YOURS}`,
    evidence: [{ document: 'sample-loan-estimate.pdf', page: 1, field: 'date_issued', value: '2026-03-06' }],
    regulation: '12 CFR 1026.19(e)(1)(iii)(A)',
  },
  {
    key: 'SAMPLE-004',
    code: 'SAMPLE-004',
    severity: 'low',
    category: 'documentation',
    title: 'Sample: page missing from a document',
    summary: `Sample data: page 3 of 5 of the Note is missing. ${NOT_YOURS}`,
    evidence: [{ document: 'sample-note.pdf', page: 2, field: 'page_footer', value: 'Page 2 of 5' }],
    regulation: null,
  },
  {
    key: 'SAMPLE-005',
    code: 'SAMPLE-005',
    severity: 'info',
    category: 'documentation',
    title: 'Sample: low-confidence scan',
    summary: `Sample data: one page was read with OCR confidence 71%. ${NOT_YOURS}`,
    evidence: [{ document: 'sample-pay-stub.jpg', page: 1, field: 'ocr_confidence', value: '71' }],
    regulation: null,
  },
];
