// Deleting a review's data: every object its rows name and every object under the review's own prefixes
// (reports, fetched sources, unpacked members), then its rows (one audit row stays). Run by the review's
// workflow once nothing of the review is in flight; safe to run again.
import type { Sql } from '../db/client.js';
import { deleteReviewRows, reviewObjectKeys, type ReviewDeletion } from '../db/review-deletion.js';
import { reviewPrefixes } from '../storage/keys.js';
import { removeObjects, removePrefix, type Storage } from '../storage/minio.js';

export async function purgeReview(
  deps: { sql: Sql; storage: Storage },
  d: ReviewDeletion,
): Promise<{ objects: number }> {
  const objectKeys = await reviewObjectKeys(deps.sql, d.reviewId);
  await removeObjects(deps.storage, objectKeys);
  let objects = objectKeys.length;
  for (const prefix of reviewPrefixes(d.reviewId)) objects += await removePrefix(deps.storage, prefix);
  await deleteReviewRows(deps.sql, d);
  return { objects };
}
