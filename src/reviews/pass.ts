// A pass of the pipeline begins: the organization's settings as they stand, one of its analysis slots if
// one is free, and the transition that leads to. The workflow's bookkeeping begins a pass this way
// (activities/analysis.ts); a create its workflow records begins its first in the same activity that
// records the review (activities/review-record.ts), so that the create waits for one round through the
// worker, not two.
import type { Config } from '../config.js';
import type { Sql } from '../db/client.js';
import { acquireAnalysisSlot } from '../db/analysis-slots.js';
import { getOrganization } from '../db/organizations.js';
import { recordTransition, secondsInState } from '../db/reviews.js';
import { slotsInUse, type PassBegun, type ReviewPolicy } from './pipeline.js';
import { customerStatus, type InternalState } from './states.js';

export interface PassRequest {
  reviewId: string;
  organizationId: string;
  /** The state the pass works in: analysing, or amending a released review. */
  working: InternalState;
  /** The review's state now: a transition to where the pass leads is written only when it differs. */
  current: InternalState;
}

/** An organization's settings, read at each pass so that an operator's change applies to the next. */
export async function reviewPolicy(sql: Sql, limits: Config['limits'], organizationId: string): Promise<ReviewPolicy> {
  const org = await getOrganization(sql, organizationId);
  return {
    maxConcurrentAnalyses: org?.maxConcurrentAnalyses ?? limits.maxConcurrentAnalyses,
    releasePolicy: org?.releasePolicy ?? 'auto',
    awaitingDocumentsSeconds: org?.awaitingDocumentsSeconds ?? limits.awaitingDocumentsDays * 86_400,
  };
}

/**
 * Takes one of the organization's analysis slots if one is free and writes the transition that leads to,
 * unless the review is there already: `working` with a slot, `waiting_for_capacity` without.
 */
export async function beginPass(
  sql: Sql,
  limits: Config['limits'],
  r: PassRequest,
  /** Told how long the review waited for the slot it took (0: none was waited for). */
  onSlot: (waitedSeconds: number) => void = () => {},
): Promise<PassBegun> {
  const policy = await reviewPolicy(sql, limits, r.organizationId);
  const limit = policy.maxConcurrentAnalyses;
  const slot = await acquireAnalysisSlot(sql, { reviewId: r.reviewId, organizationId: r.organizationId, limit });
  const next: InternalState = slot ? r.working : 'waiting_for_capacity';
  // Read before the transition below restarts the review's time in its state.
  if (slot) onSlot(r.current === 'waiting_for_capacity' ? ((await secondsInState(sql, r.reviewId)) ?? 0) : 0);
  if (next !== r.current) {
    await recordTransition(sql, {
      reviewId: r.reviewId,
      internalState: next,
      status: customerStatus(next),
      detail: slot ? null : slotsInUse(limit),
    });
  }
  return { policy, slot };
}
