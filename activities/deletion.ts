// Deleting a review, for its workflows: the objects and rows of the review (src/reviews/deletion.ts), once
// its workflow has nothing of it in flight; its runs' histories, once they have ended, through the
// worker's own Temporal client.
import { Context } from '@temporalio/activity';
import type { Sql } from '../src/db/client.js';
import type { ReviewDeletion } from '../src/db/review-deletion.js';
import { purgeReview } from '../src/reviews/deletion.js';
import type { Storage } from '../src/storage/minio.js';
import { deleteReviewHistories } from '../src/temporal/review-runs.js';

export function createDeletionActivities({ sql, storage }: { sql: Sql; storage: Storage }) {
  return {
    /** Removes the review's objects, then its rows (one audit row stays); how many objects went. */
    async purgeReview(input: ReviewDeletion): Promise<{ objects: number }> {
      return purgeReview({ sql, storage }, input);
    },
    async deleteReviewHistories(input: { reviewId: string }): Promise<void> {
      await deleteReviewHistories(Context.current().client, input.reviewId);
    },
  };
}
