// Releases: each released report of a review (the first, then amendments), newest = current.
import type { Sql } from './client.js';
import type { Issue, Summary } from '../reviews/report.js';

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
