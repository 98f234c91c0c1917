// The Report resource of the interface specification.
import { z } from '../openapi/zod.js';
import type { Finding } from '../qc/finding.js';
import { REVIEW_STATUSES } from './review.js';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

export const IssueSchema = z.strictObject({
  code: z.string(),
  severity: z.string(),
  category: z.string(),
  title: z.string(),
  summary: z.string(),
}).openapi('Issue');
export type Issue = z.infer<typeof IssueSchema>;

/** What the report shows of a finding: exactly the Issue fields of the interface. */
export function issueOf({ code, severity, category, title, summary }: Finding): Issue {
  return { code, severity, category, title, summary };
}

export const SummarySchema = z.strictObject({
  total: z.number().int().min(0),
  critical: z.number().int().min(0),
  high: z.number().int().min(0),
  medium: z.number().int().min(0),
  low: z.number().int().min(0),
  info: z.number().int().min(0),
}).openapi('Summary');
export type Summary = z.infer<typeof SummarySchema>;

export const ReportSchema = z.strictObject({
  review_id: z.uuid(),
  status: z.enum(REVIEW_STATUSES),
  outcome: z.string(),
  summary: SummarySchema,
  issues: z.array(IssueSchema),
  report_pdf_url: z.string(),
  report_pdf_expires_at: z.iso.datetime(),
  sandbox: z.boolean(),
  generated_at: z.iso.datetime(),
});
export type Report = z.infer<typeof ReportSchema>;

/** How long a presigned report URL stays valid. */
export const REPORT_URL_LIFETIME_SECONDS = 5 * 60;

const SEVERITY_SET: ReadonlySet<string> = new Set(SEVERITIES);

/** The summary counts of a list of issues. */
function summarize(issues: readonly Issue[]): Summary {
  const summary: Summary = { total: issues.length, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const i of issues) if (SEVERITY_SET.has(i.severity)) summary[i.severity as (typeof SEVERITIES)[number]] += 1;
  return summary;
}

/** DECISIONS 3: `clear` when no issue is above `info`, else `issues_found`. */
function outcomeOf(issues: readonly Issue[]): 'clear' | 'issues_found' {
  return issues.every((i) => i.severity === 'info') ? 'clear' : 'issues_found';
}

/** What a release states, all derived from its findings here and nowhere else. */
export interface ReleaseContent {
  outcome: 'clear' | 'issues_found';
  summary: Summary;
  findings: readonly Finding[];
}

export function releaseContent(findings: readonly Finding[]): ReleaseContent {
  return { outcome: outcomeOf(findings), summary: summarize(findings), findings };
}
