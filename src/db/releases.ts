// Releases: each released report of a review (the first, then amendments), newest = current.
import { z } from 'zod';
import type { Sql } from './client.js';
import { EvidenceSchema, issueOf, OUTCOMES, type Issue, type ReleaseContent, type Summary } from '../reviews/report.js';
import type { Review } from '../reviews/review.js';
import { CATEGORIES, regulationOf, SEVERITIES } from '../qc/catalog.js';
import type { Finding } from '../qc/finding.js';
import { customerStatus } from '../reviews/states.js';
import { logTransition, setReviewState } from './reviews.js';
import { ParticularsSchema, type Particulars } from '../report/particulars.js';
import { activeDecisions } from './dispositions.js';
import type { ReportSheetContent } from '../report/render.js';

export interface Release {
  id: string;
  reviewId: string;
  sequence: number;
  outcome: (typeof OUTCOMES)[number];
  summary: Summary;
  /** The findings as the Report shows them. */
  issues: Issue[];
  findings: Finding[];
  reportObjectKey: string;
  generatedAt: Date;
}

type ReleaseRow = {
  id: string;
  review_id: string;
  sequence: number;
  outcome: string;
  summary: Summary;
  findings: unknown;
  report_object_key: string;
  generated_at: Date;
};

/** Evidence as stored: the Issue's, with where the value was printed (src/qc/fields.ts PrintedBox) when known. */
const StoredEvidenceSchema = EvidenceSchema.extend({
  box: z
    .object({
      x0: z.number(),
      y0: z.number(),
      x1: z.number(),
      y1: z.number(),
      source: z.enum(['text_layer', 'ocr']),
      quarterTurns: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
      turned: z.number().optional(),
    })
    .optional(),
});

/**
 * Findings as stored (JSON), read back. Releases stored before findings carried evidence and a regulation
 * read as having no evidence and their rule's regulation, so that every release shows the same Issue.
 */
const StoredFindingsSchema = z.array(
  z
    .object({
      key: z.string(),
      code: z.string(),
      severity: z.enum(SEVERITIES),
      category: z.enum(CATEGORIES),
      title: z.string(),
      summary: z.string(),
      evidence: z.array(StoredEvidenceSchema).default([]),
      regulation: z.string().nullable().optional(),
    })
    .transform(
      ({ regulation, ...f }): Finding => ({
        ...f,
        regulation: regulation === undefined ? regulationOf(f.code) : regulation,
      }),
    ),
);

function storedFindings(json: unknown): Finding[] {
  return StoredFindingsSchema.parse(json);
}

function fromRow(r: ReleaseRow): Release {
  // The issues column keeps what was released as it was shown then; today's Issue is made from the findings.
  const findings = storedFindings(r.findings);
  return {
    id: r.id,
    reviewId: r.review_id,
    sequence: r.sequence,
    outcome: z.enum(OUTCOMES).parse(r.outcome),
    summary: r.summary,
    issues: findings.map(issueOf),
    findings,
    reportObjectKey: r.report_object_key,
    generatedAt: r.generated_at,
  };
}

export async function currentRelease(sql: Sql, reviewId: string): Promise<Release | undefined> {
  const [r] = await sql<ReleaseRow[]>`
    select * from releases where review_id = ${reviewId} order by sequence desc limit 1`;
  return r && fromRow(r);
}

export async function getRelease(sql: Sql, reviewId: string, releaseId: string): Promise<Release | undefined> {
  const [r] = await sql<ReleaseRow[]>`select * from releases where review_id = ${reviewId} and id = ${releaseId}`;
  return r && fromRow(r);
}

export async function releaseCount(sql: Sql, reviewId: string): Promise<number> {
  const [r] = await sql<{ n: number }[]>`select count(*)::int as n from releases where review_id = ${reviewId}`;
  return r!.n;
}

export interface NewRelease extends ReleaseContent {
  id: string;
  reviewId: string;
  reportObjectKey: string;
  generatedAt: Date;
}

/**
 * Stores an analysis's findings as the draft of release `id` (the workflow chose the id). A retried
 * analysis writes its findings again under the same id.
 */
export async function saveReleaseDraft(
  sql: Sql,
  draft: { id: string; reviewId: string; findings: readonly Finding[]; particulars?: Particulars },
): Promise<void> {
  const particulars = draft.particulars ? sql.json(draft.particulars) : null;
  await sql`
    insert into release_drafts (id, review_id, findings, particulars)
    values (${draft.id}, ${draft.reviewId}, ${sql.json(draft.findings as Finding[])}, ${particulars})
    on conflict (id) do update set findings = excluded.findings, particulars = excluded.particulars`;
}

/** The findings of a release: its draft while it is one, the release's once published. */
export async function releaseFindings(sql: Sql, reviewId: string, releaseId: string): Promise<Finding[]> {
  const [row] = await sql<{ findings: unknown }[]>`
    select findings from release_drafts where id = ${releaseId} and review_id = ${reviewId}
    union all
    select findings from releases where id = ${releaseId} and review_id = ${reviewId}
    limit 1`;
  if (!row) throw new Error(`release ${releaseId} of review ${reviewId} has no findings stored`);
  return storedFindings(row.findings);
}

/**
 * Commits a release (its PDF already stored) and marks the review completed with its report available, in
 * one transaction. Idempotent per release id, so a retried activity does not release twice.
 */
export async function publishRelease(sql: Sql, r: NewRelease): Promise<Review> {
  return sql.begin(async (tx) => {
    const inserted = await tx`
      insert into releases (id, review_id, sequence, outcome, summary, issues, findings,
      report_object_key, generated_at, particulars)
      select ${r.id}, ${r.reviewId}, coalesce(max(sequence), 0) + 1, ${r.outcome}, ${tx.json(r.summary)},
             ${tx.json(r.findings.map(issueOf))}, ${tx.json(r.findings as Finding[])},
             ${r.reportObjectKey}, ${r.generatedAt},
             (select particulars from release_drafts where id = ${r.id})
        from releases where review_id = ${r.reviewId}
      on conflict (id) do nothing
      returning sequence`;
    const review = await setReviewState(tx, {
      reviewId: r.reviewId,
      internalState: 'released',
      status: customerStatus('released'),
    });
    if (!review) throw new Error(`review ${r.reviewId} does not exist`);
    // Its draft, and any an analysis left unpublished (superseded by newer documents), are done with.
    await tx`delete from release_drafts where review_id = ${r.reviewId}`;
    // A retried publish (its reply lost) leaves the log as it was.
    if (inserted.length > 0) {
      await logTransition(tx, {
        reviewId: r.reviewId,
        internalState: 'released',
        status: customerStatus('released'),
        detail: `release ${r.id}`,
      });
    }
    return review;
  });
}

/** What the report of a release (a draft about to be rendered, or a published one) shows beside its findings. */
export async function reportSheet(
  sql: Sql,
  reviewId: string,
  releaseId: string,
): Promise<Omit<ReportSheetContent, 'standing'>> {
  const [own] = await sql<{ particulars: unknown; sequence: number | null }[]>`
    select particulars, null::int as sequence from release_drafts where id = ${releaseId} and review_id = ${reviewId}
    union all
    select particulars, sequence from releases where id = ${releaseId} and review_id = ${reviewId}
    limit 1`;
  const [previous] = await sql<ReleaseRow[]>`
    select * from releases
     where review_id = ${reviewId} and id <> ${releaseId} and (${own?.sequence ?? null}::int is null or
     sequence < ${own?.sequence ?? null}::int)
     order by sequence desc limit 1`;
  const decisions = previous ? await activeDecisions(sql, reviewId, { answering: previous.id }) : [];
  return {
    number: own?.sequence ?? (previous?.sequence ?? 0) + 1,
    particulars: own?.particulars ? ParticularsSchema.parse(own.particulars) : null,
    previous: previous
      ? { number: previous.sequence, generatedAt: previous.generated_at, findings: storedFindings(previous.findings) }
      : null,
    decisions: decisions.map((d) => ({ findingId: d.findingKey, decision: d.decision, comment: d.comment })),
  };
}
