// A finding of the analysis: what a report issue shows (code, severity, category, title, summary, the
// evidence it rests on, the regulation it applies) plus the key that identifies it across re-assessments
// (its rule code and what it is about), which names its fields in the working document, is the issue's
// `id`, and lets a decision taken on it (cleared, disputed) follow it into the next release. The engine's
// own type: the report resource (reviews/report.ts) shows it as an Issue.
import type { PrintedBox } from './fields.js';

/** A value a finding rests on, where it was printed: the file as uploaded and the page in that file. */
export type Evidence = {
  document: string;
  /** 1-based page within `document`. */
  page: number;
  /** What was read, in snake_case: `loan_amount`, `apr`, `page_footer`. */
  field: string;
  /** The value as the summary shows it ("$162,000.00", "3.875%"); null where the field was blank or unreadable. */
  value: string | null;
  /** Where on the page it was printed, when the reader knows: the report's picture of it. Not part of the Issue. */
  box?: PrintedBox;
};

import type { Category, Severity } from './catalog.js';

// Type aliases, not interfaces: postgres.js stores them as JSON, which wants an index signature.
export type Finding = {
  code: string;
  severity: Severity;
  category: Category;
  title: string;
  summary: string;
  /** `<code>` or `<code>:<subject>`, e.g. `DOC-001:closing_disclosure`; unique within one release. */
  key: string;
  evidence: Evidence[];
  /** The provision the finding applies, e.g. `12 CFR 1026.19(f)(1)(ii)`; null where none does. */
  regulation: string | null;
};
