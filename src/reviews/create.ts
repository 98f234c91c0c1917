// Recording a new review: its ingested documents kept where they lie, the review and its documents
// written in one transaction. The worker records every create its workflow ingests; the API records a
// small live create itself and starts the review's workflow after answering (docs/decisions.md,
// "Creates the API records").
import { DuplicateReferenceIdError, getReviewRecord, insertReview } from '../db/reviews.js';
import type { IngestedSubmission } from '../db/submissions.js';
import { commitDocuments, type StagedFile } from '../ingest/package.js';
import { refuse, submissionIngester, type IngestingDeps } from '../ingest/submission.js';
import { removeObjects } from '../storage/minio.js';
import { isRefused, type Refused } from './pipeline.js';
import type { Review, ReviewStatus } from './review.js';
import type { InternalState } from './states.js';

/** A review to record, as the create asked for it. */
export interface ReviewToCreate {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  reviewType: string;
  label: string | null;
  referenceId: string | null;
  metadata: Record<string, string> | null;
  /** ISO timestamp chosen by the API, so the id order and created_at agree with the request. */
  createdAt: string;
  /** The API request's X-Request-Id: a refusal is logged under it. */
  requestId?: string;
  status: ReviewStatus;
  internalState: InternalState;
}

/** A review recorded, in the internal state it was recorded in. */
export interface RecordedReview {
  review: Review;
  internalState: InternalState;
}

/** The submission's staged files that did not become documents where they lie (packages, duplicates). */
export function unkept(staged: readonly string[], documentKeys: readonly string[]): string[] {
  const kept = new Set(documentKeys);
  return staged.filter((key) => !kept.has(key));
}

export function reviewCreation(deps: IngestingDeps) {
  const { sql, storage, log } = deps;
  const ingested = submissionIngester(deps);

  /**
   * Keeps the documents, then writes the review and its documents in one transaction. `runOn`: the task
   * queue the review's workflow is started on after (the API records the review), or null when it runs
   * already (it records its own creates); until it is started the review is a pending run
   * (src/db/reviews.ts, pendingRuns).
   */
  const record = async (
    input: ReviewToCreate,
    { documents, staged }: IngestedSubmission,
    o: { runOn: string | null },
  ): Promise<RecordedReview | Refused> => {
    const keys = await commitDocuments(storage, input.reviewId, documents);
    let review: Review;
    try {
      review = await insertReview(
        sql,
        {
          id: input.reviewId,
          organizationId: input.organizationId,
          sandbox: input.sandbox,
          status: input.status,
          internalState: input.internalState,
          reviewType: input.reviewType,
          label: input.label,
          referenceId: input.referenceId,
          metadata: input.metadata,
          createdAt: new Date(input.createdAt),
          ...(o.runOn ? { runPendingOn: o.runOn } : {}),
        },
        documents.map((d, i) => ({ ...d, objectKey: keys[i]! })),
      );
    } catch (err) {
      if (err instanceof DuplicateReferenceIdError) {
        // Refused: nothing of it is kept.
        await removeObjects(storage, [...keys, ...staged]).catch(() => {});
        const message = 'A review with this reference_id already exists in your organization.';
        return refuse({
          log,
          requestId: input.requestId,
          what: 'the create',
          reviewId: input.reviewId,
          code: 'duplicate_reference_id',
          message,
        });
      }
      throw err;
    }
    await removeObjects(storage, unkept(staged, keys));
    return { review, internalState: input.internalState };
  };

  return {
    record,

    /**
     * Ingests a create's uploads and records the review with them. Once the review is recorded, the same
     * create again answers it as recorded and ingests nothing (a retried activity, a resumed request).
     */
    async fromUploads(
      input: ReviewToCreate,
      files: StagedFile[],
      o: { runOn: string | null },
    ): Promise<RecordedReview | Refused> {
      const existing = await getReviewRecord(sql, input.organizationId, input.reviewId);
      if (existing) return { review: existing.review, internalState: existing.internalState };
      const submission = await ingested({
        reviewId: input.reviewId,
        target: { kind: 'create' },
        files,
        sources: [],
        ...(input.requestId ? { requestId: input.requestId } : {}),
      });
      return isRefused(submission) ? submission : record(input, submission, o);
    },
  };
}
