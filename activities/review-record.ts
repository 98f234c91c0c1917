// Read-model writes for the review workflow: thin adapters over src/db/reviews.ts.
import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../src/db/client.js';
import { DuplicateReferenceIdError, insertReview } from '../src/db/reviews.js';
import type { Review, ReviewStatus } from '../src/reviews/review.js';
import type { CreateReviewRequest, ReviewWorkflowInput } from '../workflows/messages.js';

export interface CreateReviewRecordInput extends ReviewWorkflowInput, CreateReviewRequest {
  status: ReviewStatus;
  internalState: string;
}

export function createReviewActivities({ sql }: { sql: Sql }) {
  return {
    async createReviewRecord(input: CreateReviewRecordInput): Promise<Review> {
      try {
        return await insertReview(sql, {
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
        });
      } catch (err) {
        if (err instanceof DuplicateReferenceIdError) {
          throw ApplicationFailure.nonRetryable(
            'A review with this reference_id already exists in your organization.',
            'duplicate_reference_id',
          );
        }
        throw err;
      }
    },

  };
}
