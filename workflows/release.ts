// Releasing a report: render and store its PDF (retried while it cannot be stored: never released
// without it), pass the release gate when a release must be approved, publish, announce.
import { condition, sleep } from '@temporalio/workflow';
import type { ReviewPolicy } from '../src/reviews/pipeline.js';
import { bookkeeper, rendering } from './activity-options.js';
import type { ReviewProgress } from './progress.js';
import { failureMessage } from './failures.js';

/** A blocked publication is retried with this backoff. */
const FIRST_PUBLICATION_RETRY_MS = 5_000;
const MAX_PUBLICATION_RETRY_MS = 5 * 60_000;

/** The release to make: drafted by the analysis, its findings stored under its id. */
export interface ReleaseDraft {
  releaseId: string;
}

/** Renders, gates, publishes and announces one release; returns without releasing when new documents made it stale. */
export async function release(
  progress: ReviewProgress,
  draft: ReleaseDraft,
  disputeReason: string | null,
  policy: ReviewPolicy,
): Promise<void> {
  const { state } = progress;
  // The release's time: its Report's generated_at, its PDF's date and its webhook's occurred_at.
  const ref = { reviewId: state.reviewId, releaseId: draft.releaseId, generatedAt: new Date().toISOString() };
  const render = () =>
    rendering().renderRelease.executeWithOptions(
      { summary: `Render and store the report of release ${ref.releaseId}` },
      [ref],
    );
  /** Renders and stores the PDF, retried while it cannot be: never released without it. */
  const renderStored = async (): Promise<string> => {
    let retryIn = FIRST_PUBLICATION_RETRY_MS;
    for (;;) {
      try {
        return await render();
      } catch (err) {
        // The review stays processing until the render is stored.
        const detail =
          `The report could not be rendered or stored (${failureMessage(err)}); ` + `retrying in ${retryIn / 1000} s.`;
        if (state.internalState !== 'publication_blocked') await progress.enter('publication_blocked', { detail });
        else progress.explain(detail);
        await sleep(retryIn);
        retryIn = Math.min(retryIn * 2, MAX_PUBLICATION_RETRY_MS);
      }
    }
  };
  await progress.enter('rendering');
  let reportKey = await renderStored();
  const gate =
    policy.releasePolicy === 'hold'
      ? 'the organization holds every release for approval'
      : state.holdRequested
        ? 'an operator asked to hold it'
        : disputeReason;
  if (gate !== null) {
    progress.review.waitAtGate({ releaseId: ref.releaseId, reason: gate });
    await progress.enter('release_gate', {
      detail: `Waiting for an operator's approval (the approve update): ${gate}.`,
    });
    // New documents make what waits here stale: analyse them first, and come back to the gate after.
    await condition(() => state.approved || state.reassessmentPending);
    if (progress.review.leaveGate() === 'stale') return;
    // Approved perhaps hours after its render: the release is made now, and its PDF says so.
    if (!state.reassessmentPending) {
      ref.generatedAt = new Date().toISOString();
      reportKey = await renderStored();
    }
  }
  // Documents that arrived since the analysis would make this release stale the moment it is out:
  // analyse again instead, so `completed` always covers every document the integrator was told of.
  if (state.reassessmentPending) return;
  // Every earlier transition is in the read model before the release completes the review.
  await progress.recorded();
  await bookkeeper.publishRelease.executeWithOptions({ summary: `Publish release ${ref.releaseId}` }, [
    { ...ref, reportKey },
  ]);
  progress.review.released();
  await progress.enter('released', { recorded: true });
  progress.announce(state.releases === 1 ? 'review.completed' : 'review.amended', ref.releaseId, ref.generatedAt);
}
