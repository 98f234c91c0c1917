// The release gate, from the operator's side: approving what waits there and holding the next release
// (Temporal updates, so that a call that does nothing is refused where the operator sees it). The release
// itself waits in release.ts.
import { ApplicationFailure } from '@temporalio/workflow';
import type { ReviewProgress } from './progress.js';

export class ReleaseGate {
  constructor(private readonly progress: ReviewProgress) {}

  /** Synchronous, changes nothing: a refused update never reaches the workflow's history. */
  validateApprove(): void {
    const { state } = this.progress;
    if (state.internalState === 'release_gate') {
      if (state.approved) throw refusal('The release waiting at the release gate is already approved.');
      return;
    }
    if (!state.holdRequested)
      throw refusal(
        `Nothing waits at the release gate (the review is ${state.internalState}) and no hold is asked for.`,
      );
  }

  approve(): string {
    const { state } = this.progress;
    if (state.internalState === 'release_gate') {
      this.progress.review.approve();
      const waiting = state.gate;
      return waiting
        ? `Approved: release ${waiting.releaseId} will be published (${waiting.reason}).`
        : 'Approved: the release waiting at the gate will be published.';
    }
    this.progress.review.setHold(false);
    return 'The hold is lifted: the next release will be published without waiting.';
  }

  validateHold(): void {
    const { state } = this.progress;
    if (!state.created) throw refusal('There is no review to hold: its create was refused or has not been accepted.');
    if (state.internalState === 'failed') throw refusal('The review failed; it will release nothing.');
    if (state.internalState === 'release_gate')
      throw refusal('A release already waits at the release gate: approve it, or leave it waiting.');
    if (state.holdRequested)
      throw refusal('A hold is already asked for: the next release will wait at the release gate.');
  }

  hold(): string {
    this.progress.review.setHold(true);
    return 'Held: the next release will wait at the release gate until approved.';
  }
}

/** An update refused by its validator: the caller gets this message, the history nothing. */
function refusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'refused', message, nonRetryable: true });
}
