// Releases: each released report of a review (the first, then amendments), newest = current.
import type { Sql } from './client.js';
import type { Issue, Summary } from '../reviews/report.js';
import type { Review } from '../reviews/review.js';
import { reviewFromRow, type ReviewRow } from './reviews.js';

export interface Release {
  id: string;
  reviewId: string;
  sequence: number;
  outcome: string;
  summary: Summary;
  issues: Issue[];
  reportObjectKey: string;
  generatedAt: Date;
}

type ReleaseRow = {
  id: string;
  review_id: string;
  sequence: number;
  outcome: string;
  summary: Summary;
  issues: Issue[];
  report_object_key: string;
  generated_at: Date;
};

export async function currentRelease(sql: Sql, reviewId: string): Promise<Release | undefined> {
  const [r] = await sql<ReleaseRow[]>`
    select * from releases where review_id = ${reviewId} order by sequence desc limit 1`;
  return (
    r && {
      id: r.id,
      reviewId: r.review_id,
      sequence: r.sequence,
      outcome: r.outcome,
      summary: r.summary,
      issues: r.issues,
      reportObjectKey: r.report_object_key,
      generatedAt: r.generated_at,
    }
  );
}

export interface NewRelease {
  id: string;
  reviewId: string;
  outcome: string;
  summary: Summary;
  issues: readonly Issue[];
  reportObjectKey: string;
  generatedAt: Date;
}

/**
 * Commits a release (its PDF already stored) and marks the review completed with its report available, in
 * one transaction. Idempotent per release id, so a retried activity does not release twice.
 */
export async function publishRelease(sql: Sql, r: NewRelease): Promise<Review> {
  return sql.begin(async (tx) => {
    await tx`
      insert into releases (id, review_id, sequence, outcome, summary, issues, report_object_key, generated_at)
      select ${r.id}, ${r.reviewId}, coalesce(max(sequence), 0) + 1, ${r.outcome}, ${tx.json(r.summary)},
             ${tx.json(r.issues as Issue[])}, ${r.reportObjectKey}, ${r.generatedAt}
        from releases where review_id = ${r.reviewId}
      on conflict (id) do nothing`;
    const [row] = await tx<ReviewRow[]>`
      update reviews set status = 'completed', internal_state = 'released', report_available = true, updated_at = now()
       where id = ${r.reviewId}
      returning *`;
    if (!row) throw new Error(`review ${r.reviewId} does not exist`);
    return reviewFromRow(row);
  });
}
