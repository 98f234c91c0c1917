// The canned report every sandbox review gets (RULES.md, "Sandbox canned report"): one sample issue per
// severity, clearly marked as sample data, identical for every sandbox review.
import type { Finding } from '../qc/finding.js';

const NOT_YOURS = 'It does not describe the documents you uploaded.';

export const SANDBOX_FINDINGS: readonly Finding[] = [
  {
    key: 'SAMPLE-001',
    code: 'SAMPLE-001',
    severity: 'critical',
    category: 'compliance',
    title: 'Sample: APR outside tolerance',
    summary: `Sample data: a disclosed APR of 6.125% against a computed 6.500% (difference 0.375, tolerance 0.125). ${NOT_YOURS}`,
  },
  {
    key: 'SAMPLE-002',
    code: 'SAMPLE-002',
    severity: 'high',
    category: 'documentation',
    title: 'Sample: Closing Disclosure missing',
    summary: `Sample data: no Closing Disclosure was found in the package. ${NOT_YOURS}`,
  },
  {
    key: 'SAMPLE-003',
    code: 'SAMPLE-003',
    severity: 'medium',
    category: 'compliance',
    title: 'Sample: Loan Estimate delivered late',
    summary: `Sample data: the Loan Estimate was issued 4 business days after application (limit 3). ${NOT_YOURS}`,
  },
  {
    key: 'SAMPLE-004',
    code: 'SAMPLE-004',
    severity: 'low',
    category: 'documentation',
    title: 'Sample: page missing from a document',
    summary: `Sample data: page 3 of 5 of the Note is missing. ${NOT_YOURS}`,
  },
  {
    key: 'SAMPLE-005',
    code: 'SAMPLE-005',
    severity: 'info',
    category: 'documentation',
    title: 'Sample: low-confidence scan',
    summary: `Sample data: one page was read with OCR confidence 71%. ${NOT_YOURS}`,
  },
];
