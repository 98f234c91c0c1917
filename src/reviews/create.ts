// A create's submission ingested and recorded, on the worker (the review workflow's createReview
// activity): its sources fetched and its files unpacked and checked, then its documents kept where they
// lie and the review and its documents written in one transaction.
import { DuplicateReferenceIdError, getReviewRecord, insertReview } from '../db/reviews.js';
import type { IngestedSubmission } from '../db/submissions.js';
import { commitDocuments } from '../ingest/package.js';
import type { StagedFile } from './staged-file.js';
import type { DocumentSource } from './review.js';
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

  /** Keeps the documents, then writes the review and its documents in one transaction. */
  const record = async (
    input: ReviewToCreate,
    { documents, staged }: IngestedSubmission,
  ): Promise<RecordedReview | Refused> => {
    const keys = await commitDocuments(storage, documents);
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
        },
        documents.map((d, i) => ({ ...d, objectKey: keys[i]! })),
      );
    } catch (err) {
      if (err instanceof DuplicateReferenceIdError) {
        // Refused: nothing of it is kept.
        await removeObjects(storage, [...keys, ...staged]).catch(() => {});
        const message =
          'A review with this reference_id already exists in your organization' +
          (err.existingReviewId ? `: review_id ${err.existingReviewId}.` : '.');
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

  /**
   * Ingests a create's uploads and source URLs and records the review with them. Once the review is
   * recorded, the same create again answers it as recorded and ingests nothing (a retried activity).
   */
  return async (
    input: ReviewToCreate,
    submitted: { files: StagedFile[]; sources: DocumentSource[] },
  ): Promise<RecordedReview | Refused> => {
    const existing = await getReviewRecord(sql, input.organizationId, input.reviewId);
    if (existing) return { review: existing.review, internalState: existing.internalState };
    const submission = await ingested({
      reviewId: input.reviewId,
      target: { kind: 'create' },
      ...submitted,
      ...(input.requestId ? { requestId: input.requestId } : {}),
    });
    return isRefused(submission) ? submission : record(input, submission);
  };
}
