// The retention's sweep, for its workflow: the organizations with a retention, their expired reviews,
// and the deletion of one (src/reviews/retention.ts) through the worker's own Temporal client.
import { Context } from '@temporalio/activity';
import type { RetentionPolicy } from '../src/db/retention.js';
import { expiredReviewIds, retentionPolicies } from '../src/db/retention.js';
import { deleteExpiredReview, type RetentionOutcome } from '../src/reviews/retention.js';
import type { ActivityDeps } from './index.js';

export function createRetentionActivities({ config, sql }: Pick<ActivityDeps, 'config' | 'sql'>) {
  return {
    async retentionPolicies(): Promise<RetentionPolicy[]> {
      return retentionPolicies(sql);
    },
    /** Up to `limit` ids of the organization's reviews past its retention, oldest first. */
    async expiredReviews(input: { organizationId: string; limit: number }): Promise<string[]> {
      return expiredReviewIds(sql, input.organizationId, input.limit);
    },
    async deleteExpiredReview(input: { reviewId: string }): Promise<RetentionOutcome> {
      const temporal = Context.current().client;
      return deleteExpiredReview({ sql, temporal, taskQueue: config.temporal.taskQueue }, input.reviewId);
    },
  };
}
