// The Report resource of the interface specification.
import { z } from '../openapi/zod.js';
import { CATEGORIES, MAX_EVIDENCE, SEVERITIES, type Severity } from '../qc/catalog.js';
import type { Finding } from '../qc/finding.js';
import { REVIEW_STATUSES } from './review.js';

export const EvidenceSchema = z
  .strictObject({
    document: z.string().describe('The file as uploaded (for a member of an archive, its path in the archive).'),
    page: z.number().int().min(1).describe('1-based page within `document`.'),
    field: z
      .string()
      .describe(
        'What was read, in snake_case: `loan_amount`, `apr`, `closing_date`, `fee.appraisal_fee`, `page_footer`.',
      ),
    value: z
      .string()
      .nullable()
      .describe(
        'The value as read and as the summary shows it; null where the field was looked for and was ' +
          'blank or unreadable.',
      ),
  })
  .openapi('Evidence');

export const IssueSchema = z
  .strictObject({
    id: z
      .string()
      .describe(
        'Identifies the finding within the review, stable across releases and amendments: the rule ' +
          'code, then what it is about (`DOC-001:loan_estimate`). The working document names its fields after ' +
          'it; dispositions carry it as `finding_id`.',
      ),
    code: z.string(),
    severity: z.enum(SEVERITIES),
    category: z.enum(CATEGORIES),
    title: z.string(),
    summary: z.string(),
    evidence: z
      .array(EvidenceSchema)
      .describe(
        `The values the finding rests on, where each was printed (at most ${MAX_EVIDENCE}); empty ` +
          `for a finding about something absent.`,
      ),
    regulation: z
      .string()
      .nullable()
      .describe('The provision the finding applies, e.g. `12 CFR 1026.19(f)(1)(ii)`; null where none does.'),
  })
  .openapi('Issue');
export type Issue = z.infer<typeof IssueSchema>;

/** What the report shows of a finding: the Issue fields of the interface, with its key as its id. */
export function issueOf({ key, code, severity, category, title, summary, evidence, regulation }: Finding): Issue {
  // Where a value was printed is the report's to draw, not a field of the interface.
  return {
    id: key,
    code,
    severity,
    category,
    title,
    summary,
    evidence: evidence.map(({ box: _box, ...e }) => e),
    regulation,
  };
}

export const SummarySchema = z
  .strictObject({
    total: z.number().int().min(0),
    critical: z.number().int().min(0),
    high: z.number().int().min(0),
    medium: z.number().int().min(0),
    low: z.number().int().min(0),
    info: z.number().int().min(0),
  })
  .openapi('Summary');
export type Summary = z.infer<typeof SummarySchema>;

/** decisions.md, "Outcome". */
export const OUTCOMES = ['clear', 'issues_found'] as const;

export const ReportSchema = z.strictObject({
  review_id: z.uuid(),
  status: z.enum(REVIEW_STATUSES),
  outcome: z.enum(OUTCOMES).describe('`clear` when no issue has a severity above `info`, else `issues_found`.'),
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

/** The summary counts of a list of findings. */
function summarize(findings: readonly { severity: Severity }[]): Summary {
  const summary: Summary = { total: findings.length, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const f of findings) summary[f.severity] += 1;
  return summary;
}

/** decisions.md, "Outcome": `clear` when no issue is above `info`, else `issues_found`. */
function outcomeOf(issues: readonly { severity: Severity }[]): (typeof OUTCOMES)[number] {
  return issues.every((i) => i.severity === 'info') ? 'clear' : 'issues_found';
}

/** What a release states, all derived from its findings here and nowhere else. */
export interface ReleaseContent {
  outcome: (typeof OUTCOMES)[number];
  summary: Summary;
  findings: readonly Finding[];
}

export function releaseContent(findings: readonly Finding[]): ReleaseContent {
  return { outcome: outcomeOf(findings), summary: summarize(findings), findings };
}
