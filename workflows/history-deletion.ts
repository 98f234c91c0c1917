// A deleted review's workflow histories, whatever becomes of whoever asked for the deletion: the review's
// last run starts this workflow as it ends (deletion.ts) and abandons it. The asker (the API, the
// retention's sweep) deletes the histories at once; this one deletes, a while later, what an asker that
// stopped in between (its process gone, its deadline past) left, so that no history, nor the reference in
// its search attributes, waits for the namespace's retention. It holds nothing of the review but its id.
import { sleep } from '@temporalio/workflow';
import { historyDeletion } from './activity-options.js';

/** Long after the asker's own deletion, which waits 30 s at most for the run to end. */
export const HISTORIES_DELETED_AFTER = '1 minute';

/** The id of the workflow that deletes review `reviewId`'s histories. */
export function historiesDeletionId(reviewId: string): string {
  return `review-histories-${reviewId}`;
}

export async function reviewHistoriesDeletion(reviewId: string): Promise<void> {
  await sleep(HISTORIES_DELETED_AFTER);
  await historyDeletion.deleteReviewHistories({ reviewId });
}
