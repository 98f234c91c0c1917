// One pass of the pipeline: take one of the organization's analysis slots (fleet-wide), analyse every
// document, give the slot back and tell the reviews it was handed to (as many waiters as slots are free).
import { CancellationScope, condition, getExternalWorkflowHandle, isCancellation, uuid4 } from '@temporalio/workflow';
import { slotsInUse, type AnalysisSummary, type PassBegun, type ReviewPolicy } from '../src/reviews/pipeline.js';
import { analysis, bookkeeper } from './activity-options.js';
import { capacityFreedSignal } from './messages.js';
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
   * Analyses the review's documents; its findings become the draft of a release. A string says why the
   * analysis could not complete. `begun` is a pass begun already (a create begins the first as it
   * records the review).
   */
  async analyse(begun: PassBegun | null = null): Promise<Analysed | string> {
    const { state } = this.progress;
    const who = { reviewId: state.reviewId, organizationId: state.organizationId };
    // (Adding documents may have moved the review here already.)
    const working = state.releases > 0 ? 'amending' : 'analysing';
    // Only a signal from after the review began asking counts: one may come while it asks (a pass begun
    // already asked before the workflow heard of it).
    if (!begun) this.capacityFreed = false;
    for (;;) {
      if (!begun) {
        // The pass writes its transition itself: every one before it must be in the read model first.
        await this.progress.recorded();
        begun = await bookkeeper.beginPass({ ...who, working, current: state.internalState });
      }
      if (begun.slot) break;
      if (state.internalState !== 'waiting_for_capacity') {
        await this.progress.enter('waiting_for_capacity', {
          detail: slotsInUse(begun.policy.maxConcurrentAnalyses),
          recorded: true,
        });
      }
      // A slot granted while the review asked comes with a signal that must wake it at once (a waiter
      // forgetting it left its slot idle until its next ask, up to 30 s).
      await condition(() => this.capacityFreed, SLOT_WAIT_MS);
      this.capacityFreed = false;
      begun = null;
    }
    const { policy } = begun;
    const limit = policy.maxConcurrentAnalyses;
    let outcome: { counts: AnalysisSummary; draft: ReleaseDraft } | string;
    try {
      this.progress.review.passStarts();
      if (state.internalState !== working) await this.progress.enter(working, { recorded: true });
      const releaseId = uuid4();
      const counts = await analysis().analyseToDraft.executeWithOptions(
        { summary: 'Read, classify and check every document' },
        [{ reviewId: state.reviewId, releaseId }],
      );
      outcome = { counts, draft: { releaseId } };
    } catch (err) {
      // A deletion stopped it: the review's work ends here (workflows/deletion.ts).
      if (isCancellation(err)) throw err;
      outcome = `The analysis could not complete: ${failureMessage(err)}`;
    } finally {
      // Given back however the pass ends, a deletion that stopped it included (nothing else would).
      await CancellationScope.nonCancellable(async () => {
        const granted = await bookkeeper.releaseAnalysisSlot({ ...who, limit });
        // Every review granted a slot is told at once, so that all the free slots are busy again together
        // (telling only the longest waiter left the rest asleep on their timers). One that is gone ignores
        // it; its grant lapses (src/db/analysis-slots.ts).
        await Promise.all(
          granted.map((id) =>
            getExternalWorkflowHandle(id)
              .signal(capacityFreedSignal)
              .catch(() => undefined),
          ),
        );
      });
    }
    if (typeof outcome === 'string') return outcome;
    const { counts, draft } = outcome;
    if (counts.nothingReadable) return `None of the ${counts.documents} document(s) could be read.`;
    const { documents, unreadable, primaryPresent, findings, disputed } = counts;
    this.progress.review.analysed({ documents, unreadable, primaryPresent, findings, disputed }, counts.disputes);
    return { draft, primaryPresent: counts.primaryPresent, disputed: counts.disputed, policy };
  }
}
