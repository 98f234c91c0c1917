// The retention's sweep, started by a Temporal Schedule (src/temporal/retention-schedule.ts): for each
// organization with a retention, its reviews past it, oldest first, each deleted through its own workflow
// as a DELETE would (a few at once). An organization's sweep stops at a batch with a review kept or not
// deleted, which the next sweep finds again; a long sweep continues as new before its history grows large.
import { continueAsNew, log, workflowInfo } from '@temporalio/workflow';
import { retention } from './activity-options.js';

/** Reviews read per query, and deleted at once (each deletion is a workflow run of its own). */
export const RETENTION_BATCH = 50;
export const RETENTION_PARALLEL = 4;

export interface RetentionSweep {
  deleted: number;
  kept: number;
  failed: number;
}

/** The sweep; `sofar` carries the counts into a run it continued as new. */
export async function retentionWorkflow(
  sofar: RetentionSweep = { deleted: 0, kept: 0, failed: 0 },
): Promise<RetentionSweep> {
  const sweep = { ...sofar };
  for (const { organizationId } of await retention.retentionPolicies()) {
    for (;;) {
      const ids = await retention.expiredReviews({ organizationId, limit: RETENTION_BATCH });
      let allDeleted = true;
      for (let i = 0; i < ids.length; i += RETENTION_PARALLEL) {
        const outcomes = await Promise.all(
          ids.slice(i, i + RETENTION_PARALLEL).map((reviewId) =>
            retention.deleteExpiredReview
              .executeWithOptions({ summary: `Delete review ${reviewId}` }, [{ reviewId }])
              .catch((err: unknown) => {
                log.warn('a review past its retention was not deleted: the next sweep tries again', {
                  reviewId,
                  error: err instanceof Error ? err.message : String(err),
                });
                return 'failed' as const;
              }),
          ),
        );
        for (const o of outcomes) sweep[o]++;
        if (outcomes.some((o) => o !== 'deleted')) allDeleted = false;
      }
      if (ids.length < RETENTION_BATCH || !allDeleted) break;
      if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof retentionWorkflow>(sweep);
    }
  }
  return sweep;
}
