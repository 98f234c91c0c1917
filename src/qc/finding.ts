// A finding of the analysis: what a report issue shows (code, severity, category, title, summary) plus the
// key that identifies it across re-assessments (its rule code and what it is about), which names its
// fields in the working document and lets a decision taken on it (cleared, disputed) follow it into the
// next release. The engine's own type: the report resource (reviews/report.ts) shows it as an Issue.

// A type alias, not an interface: postgres.js stores it as JSON, which wants an index signature.
export type Finding = {
  code: string;
  severity: string;
  category: string;
  title: string;
  summary: string;
  /** `<code>` or `<code>:<subject>`, e.g. `DOC-001:closing_disclosure`; unique within one release. */
  key: string;
};
