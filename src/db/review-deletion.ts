// Deleting a review's rows: every row of the review (its documents, releases, dispositions, events and
// their delivery attempts, transitions, drafts, analysis slot, ingested submissions, idempotency records)
// and the review itself, in one transaction, leaving one audit row. The object keys its rows name are read
// first (reviewObjectKeys), so that the objects go before the rows that name them: an interrupted deletion
// run again still finds them. Idempotent: a review already deleted deletes nothing.
import type { Sql } from './client.js';

export interface ReviewDeletion {
  reviewId: string;
  /** The API key that asked for it (its id). */
  requestedBy: string;
  requestedAt: string;
}

/** The object keys the review's rows name: its documents, report PDFs and working documents. */
export async function reviewObjectKeys(sql: Sql, reviewId: string): Promise<string[]> {
  const keys = await sql<{ key: string }[]>`
    select object_key as key from documents where review_id = ${reviewId}
    union select report_object_key from releases where review_id = ${reviewId}
    union select working_document_key from dispositions
     where review_id = ${reviewId} and working_document_key is not null`;
  return keys.map((k) => k.key);
}

export async function deleteReviewRows(sql: Sql, d: ReviewDeletion): Promise<void> {
  await sql.begin(async (tx) => {
    const [review] = await tx<{ organization_id: string; sandbox: boolean; reference_id: string | null }[]>`
      select organization_id, sandbox, reference_id from reviews where id = ${d.reviewId} for update`;
    if (!review) return;
    await tx`delete from webhook_deliveries where review_id = ${d.reviewId}`;
    await tx`delete from events where review_id = ${d.reviewId}`;
    await tx`delete from dispositions where review_id = ${d.reviewId}`;
    await tx`delete from release_drafts where review_id = ${d.reviewId}`;
    await tx`delete from releases where review_id = ${d.reviewId}`;
    await tx`delete from documents where review_id = ${d.reviewId}`;
    await tx`delete from review_transitions where review_id = ${d.reviewId}`;
    await tx`delete from analysis_slots where review_id = ${d.reviewId}`;
    await tx`delete from ingested_submissions where review_id = ${d.reviewId}`;
    await tx`delete from idempotency_records where review_id = ${d.reviewId}`;
    await tx`delete from reviews where id = ${d.reviewId}`;
    await tx`
      insert into review_deletions (review_id, organization_id, sandbox, reference_id, requested_by, requested_at)
      values (${d.reviewId}, ${review.organization_id}, ${review.sandbox}, ${review.reference_id},
              ${d.requestedBy}, ${d.requestedAt})
      on conflict (review_id) do nothing`;
  });
}
