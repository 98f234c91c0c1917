// An organization's retention: a review at rest (released or failed) is deleted once it has been at rest
// for the organization's retention_days. The deletion is the one a DELETE asks for, through the review's
// workflow (src/temporal/review-runs.ts), refused by the workflow when documents arrived since.
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Sql } from '../db/client.js';
import { expiredReview } from '../db/retention.js';
import { deleteReviewRuns } from '../temporal/review-runs.js';
import { NOT_AT_REST } from '../../workflows/messages.js';

export type RetentionOutcome = 'deleted' | 'kept';

/** Who the audit row names for a deletion of the retention. */
export function retentionRequester(retentionDays: number): string {
  return `retention:${retentionDays}d`;
}

/**
 * Deletes the review when it is past its organization's retention now (read again here: the sweep that
 * found it may be minutes old), else keeps it.
 */
export async function deleteExpiredReview(
  deps: { sql: Sql; temporal: Client; taskQueue: string },
  reviewId: string,
): Promise<RetentionOutcome> {
  const expired = await expiredReview(deps.sql, reviewId);
  if (!expired) return 'kept';
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
