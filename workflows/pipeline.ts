// One pass of the pipeline: take one of the organization's analysis slots (fleet-wide), analyse every
// document, give the slot back and tell the reviews it was handed to (as many waiters as slots are free).
import { condition, getExternalWorkflowHandle, uuid4 } from '@temporalio/workflow';
import { slotsInUse, type AnalysisSummary, type PassBegun, type ReviewPolicy } from '../src/reviews/pipeline.js';
import { analysis, bookkeeper, leanHistory } from './activity-options.js';
import { capacityFreedSignal } from './messages.js';
import { takes } from './patches.js';
import type { ReviewProgress } from './progress.js';
import { failureMessage } from './failures.js';
import type { ReleaseDraft } from './release.js';

/**
 * A review waiting for an analysis slot asks again this often, besides when it is signalled. A slot
 * given back is granted to the waiters at once and they are told (releaseAnalysisSlot's grantees), so
 * asking again is only for what no signal tells: a holder that vanished, a grant that lapsed. Asking
 * sooner only costs: in a burst of creates, hundreds of waiters asking every few seconds took as many
 * workflow tasks and database transactions as the creates themselves, and the creates waited behind them.
 */
const SLOT_WAIT_MS = 30_000;

/**
 * Patch: a waiter keeps a capacity signal that came while it was asking (now that a slot given back is
 * granted to waiters, the signal may say its slot is granted) instead of sleeping until its next ask.
 * Runs that waited before the change keep forgetting it there, so their timers stay as recorded.
 */
export const SLOT_GRANTS_PATCH = 'slot-grants';

/**
 * The reviews a release handed slots to: a list, or, as recorded before slot grants, the one review
 * waiting longest or none.
 */
function grantees(released: readonly string[] | string | null): readonly string[] {
  if (released === null) return [];
  return typeof released === 'string' ? [released] : released;
}

export interface Analysed {
  /** The organization's settings as the pass read them. */
  policy: ReviewPolicy;
  draft: ReleaseDraft;
  primaryPresent: boolean;
  disputed: number;
}

export class Pipeline {
  private capacityFreed = false;

  constructor(private readonly progress: ReviewProgress) {}

  /** Another review of the organization gave back its slot. */
  onCapacityFreed(): void {
    this.capacityFreed = true;
  }

  /**
   * Analyses the review's documents; its findings become the draft of a release, or, for runs that began
   * this analysis before release drafts (LEAN_HISTORY_PATCH), come back in hand. A string says why the analysis could not complete.
   */
  async analyse(): Promise<Analysed | string> {
    const { state } = this.progress;
    const who = { reviewId: state.reviewId, organizationId: state.organizationId };
    // (Adding documents may have moved the review here already.)
    const working = state.releases > 0 ? 'amending' : 'analysing';
    // Only a signal from after the review began asking counts: one may come while it asks.
    this.capacityFreed = false;
    let begun: PassBegun;
    for (;;) {
      // The pass writes its transition itself: every one before it must be in the read model first.
      await this.progress.recorded();
      begun = await bookkeeper().beginPass({ ...who, working, current: state.internalState });
      if (begun.slot) break;
      if (state.internalState !== 'waiting_for_capacity') {
        await this.progress.enter('waiting_for_capacity', { detail: slotsInUse(begun.policy.maxConcurrentAnalyses), recorded: true });
      }
      // A slot granted while the review asked comes with a signal that must wake it at once (a waiter
      // forgetting it left its slot idle until its next ask, up to 30 s).
      if (!takes(SLOT_GRANTS_PATCH)) this.capacityFreed = false;
      await condition(() => this.capacityFreed, SLOT_WAIT_MS);
      this.capacityFreed = false;
    }
    const { policy } = begun;
    const limit = policy.maxConcurrentAnalyses;
    let outcome: { counts: Omit<AnalysisSummary, 'releaseId'>; draft: ReleaseDraft } | string;
    try {
      state.reassessmentPending = false;
      if (state.internalState !== working) await this.progress.enter(working, { recorded: true });
      outcome = await this.run(leanHistory());
    } catch (err) {
      outcome = `The analysis could not complete: ${failureMessage(err)}`;
    } finally {
      const released: readonly string[] | string | null = await bookkeeper().releaseAnalysisSlot({ ...who, limit });
      // Every review granted a slot is told at once, so that all the free slots are busy again together
      // (telling only the longest waiter left the rest asleep on their timers). One that is gone ignores
      // it; its grant lapses (src/db/analysis-slots.ts).
      await Promise.all(grantees(released).map((id) => getExternalWorkflowHandle(id).signal(capacityFreedSignal).catch(() => undefined)));
    }
    if (typeof outcome === 'string') return outcome;
    const { counts, draft } = outcome;
    if (counts.nothingReadable) return `None of the ${counts.documents} document(s) could be read.`;
    state.lastAnalysis = { documents: counts.documents, unreadable: counts.unreadable, primaryPresent: counts.primaryPresent, findings: counts.findings, disputed: counts.disputed };
    state.disputes = counts.disputes ?? [];
    return { draft, primaryPresent: counts.primaryPresent, disputed: counts.disputed, policy };
  }

  private async run(drafts: boolean): Promise<{ counts: Omit<AnalysisSummary, 'releaseId'>; draft: ReleaseDraft }> {
    const summary = { summary: 'Read, classify and check every document' };
    const reviewId = this.progress.state.reviewId;
    if (drafts) {
      const counts = await analysis().analyseToDraft.executeWithOptions(summary, [{ reviewId, releaseId: uuid4() }]);
      return { counts, draft: { releaseId: counts.releaseId } };
    }
    const result = await analysis().analyseReview.executeWithOptions(summary, [{ reviewId }]);
    return { counts: { ...result, findings: result.findings.length }, draft: { legacyFindings: result.findings } };
  }
}
