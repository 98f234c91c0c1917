// A finding of the analysis: a report issue plus the key that identifies it across re-assessments (its
// rule code and what it is about), which names its fields in the working document and lets a decision
// taken on it (cleared, disputed) follow it into the next release.
import type { Issue } from '../reviews/report.js';

export type Finding = Issue & {
  /** `<code>` or `<code>:<subject>`, e.g. `DOC-001:closing_disclosure`; unique within one release. */
  key: string;
};

/** What the report shows of a finding: exactly the Issue fields of the interface. */
export function issueOf({ code, severity, category, title, summary }: Finding): Issue {
  return { code, severity, category, title, summary };
}
