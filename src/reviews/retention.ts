// An organization's retention: a review at rest (released or failed) is deleted once it has been at rest
// for the organization's retention_days. The deletion is the one a DELETE asks for, through the review's
// workflow (src/temporal/review-runs.ts), refused by the workflow when documents arrived since.
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Sql } from '../db/client.js';
import { deletedByRetention, expiredReview, RETENTION_REQUESTER_PREFIX } from '../db/retention.js';
import { deleteReviewRuns } from '../temporal/review-runs.js';
import { NOT_AT_REST } from '../../workflows/messages.js';

export type RetentionOutcome = 'deleted' | 'kept';

/** Who the audit row names for a deletion of the retention. */
export function retentionRequester(retentionDays: number): string {
  return `${RETENTION_REQUESTER_PREFIX}${retentionDays}d`;
}

/**
 * Deletes the review when it is past its organization's retention now (read again here: the sweep that
 * found it may be minutes old), else keeps it. An attempt that finds the review already deleted by a
 * retention answers `deleted`: the attempt before it ended (timed out, its worker gone) once the review's
 * workflow had purged it, and the workflow the run left behind deletes its histories
 * (workflows/history-deletion.ts).
 */
export async function deleteExpiredReview(
  deps: { sql: Sql; temporal: Client; taskQueue: string },
  reviewId: string,
): Promise<RetentionOutcome> {
  const expired = await expiredReview(deps.sql, reviewId);
  if (!expired) return (await deletedByRetention(deps.sql, reviewId)) ? 'deleted' : 'kept';
  try {
    await deleteReviewRuns(deps.temporal, deps.taskQueue, expired.organizationId, expired.record, {
      requestedBy: retentionRequester(expired.retentionDays),
      requestedAt: new Date().toISOString(),
      onlyAtRest: true,
    });
  } catch (err) {
    if (
      err instanceof WorkflowUpdateFailedError &&
      err.cause instanceof ApplicationFailure &&
      err.cause.type === NOT_AT_REST
    )
      return 'kept';
    throw err;
  }
  return 'deleted';
}
