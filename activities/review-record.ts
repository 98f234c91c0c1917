// Read-model writes for the review workflow: thin adapters over src/db/reviews.ts.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../src/db/client.js';
import { DuplicateReferenceIdError, insertReview } from '../src/db/reviews.js';
import { addDocuments } from '../src/db/documents.js';
import { commitDocuments, type IngestedDocument } from '../src/ingest/package.js';
import { removeObjects, type Storage } from '../src/storage/minio.js';
import type { Review, ReviewStatus } from '../src/reviews/review.js';
import type { CreateReviewRequest, ReviewWorkflowInput } from '../workflows/messages.js';

export interface CreateReviewRecordInput extends ReviewWorkflowInput, Omit<CreateReviewRequest, 'files' | 'sources'> {
  status: ReviewStatus;
  internalState: string;
  documents: IngestedDocument[];
  /** The staging objects the documents came from; removed once the review is recorded. */
  staged: string[];
}

export function createReviewActivities({ sql, storage }: { sql: Sql; storage: Storage }) {
  return {
    /** Moves the documents to their final keys, then writes the review and its documents in one transaction. */
    async createReviewRecord(input: CreateReviewRecordInput): Promise<Review> {
      const keys = await commitDocuments(storage, input.reviewId, input.documents);
      try {
        const review = await insertReview(
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
          input.documents.map((d, i) => ({ ...d, objectKey: keys[i]! })),
        );
        await removeObjects(storage, input.staged);
        return review;
      } catch (err) {
        if (err instanceof DuplicateReferenceIdError) {
          // Refused: nothing of it is kept.
          await removeObjects(storage, [...keys, ...input.staged]).catch(() => {});
          throw ApplicationFailure.nonRetryable(
            'A review with this reference_id already exists in your organization.',
            'duplicate_reference_id',
          );
        }
        throw err;
      }
    },

    /** Adds documents to an existing review: final keys first, then the rows and the count in one transaction. */
    async recordAddedDocuments(input: { reviewId: string; documents: IngestedDocument[]; staged: string[] }): Promise<{ evidenceAdded: number }> {
      const keys = await commitDocuments(storage, input.reviewId, input.documents);
      const result = await addDocuments(sql, input.reviewId, input.documents.map((d, i) => ({ ...d, objectKey: keys[i]! })));
      await removeObjects(storage, input.staged);
      return result;
    },
  };
}
