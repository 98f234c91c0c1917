// Deleting a review, for its workflow: the objects and rows of the review (src/reviews/deletion.ts), once
// the workflow has nothing of it in flight.
import type { Sql } from '../src/db/client.js';
import type { ReviewDeletion } from '../src/db/review-deletion.js';
import { purgeReview } from '../src/reviews/deletion.js';
import type { Storage } from '../src/storage/minio.js';

export function createDeletionActivities({ sql, storage }: { sql: Sql; storage: Storage }) {
  return {
    /** Removes the review's objects, then its rows (one audit row stays); how many objects went. */
    async purgeReview(input: ReviewDeletion): Promise<{ objects: number }> {
      return purgeReview({ sql, storage }, input);
    },
  };
}
