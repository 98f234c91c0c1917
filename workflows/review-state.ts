// The review's state inside its workflow, and the one place it changes: handlers, the pipeline, the
// release and the main loop call these transitions and read the rest (read-only: no other module assigns
// a field). What follows a transition for the world outside (the read model, search attributes, the UI,
// webhooks) is ReviewProgress's (progress.ts).
import type { Dispute } from '../src/reviews/pipeline.js';
import { atRest, type InternalState } from '../src/reviews/states.js';
import type { ReviewWorkflowInput, ReviewWorkflowState } from './messages.js';

export class ReviewState {
  private readonly s: ReviewWorkflowState;

  constructor(input: ReviewWorkflowInput) {
    this.s = input.carried
      ? { ...input.carried, approved: false }
      : {
          reviewId: input.reviewId,
          organizationId: input.organizationId,
          sandbox: input.sandbox,
          internalState: input.resumed?.internalState ?? 'ingesting',
          created: input.resumed !== undefined,
          rejection: null,
          reassessmentPending: false,
          releases: 0,
          awaitingDeadline: null,
          deadlinePassed: false,
          holdRequested: false,
          approved: false,
          lastAnalysis: null,
          disputes: [],
          gate: null,
          detail: null,
        };
  }

  /** The state as it stands (what the getState query answers). */
  get now(): Readonly<ReviewWorkflowState> {
    return this.s;
  }

  /** Moves to an internal state, with why in words (or none). */
  moveTo(next: InternalState, detail: string | null): void {
    this.s.internalState = next;
    this.s.detail = detail;
  }

  /** Says why the review is where it is, without a transition. */
  explain(detail: string): void {
    this.s.detail = detail;
  }

  /** A run that continues a recorded review: its releases so far, and a pipeline cut off mid-way to run again. */
  resumed(releases: number): void {
    this.s.releases = releases;
    if (!atRest(this.s.internalState)) this.s.reassessmentPending = true;
  }

  /** The create's documents are recorded: the review exists (a live one is analysed next). */
  created(): void {
    this.s.created = true;
    if (!this.s.sandbox) this.s.reassessmentPending = true;
  }

  /** The create was refused: no review exists. */
  createRefused(rejection: { code: string; message: string }): void {
    this.s.rejection = rejection;
  }

  /** New evidence, or a decision applied: analyse again. */
  documentsArrived(): void {
    this.s.reassessmentPending = true;
  }

  /** A pass of the pipeline starts: it covers everything that arrived before it. */
  passStarts(): void {
    this.s.reassessmentPending = false;
  }

  /** What the last analysis found, for operators. */
  analysed(lastAnalysis: NonNullable<ReviewWorkflowState['lastAnalysis']>, disputes: Dispute[]): void {
    this.s.lastAnalysis = lastAnalysis;
    this.s.disputes = disputes;
  }

  /** A review without its primary documents waits for them until this time (set once). */
  awaitUntil(deadline: string): void {
    this.s.awaitingDeadline ??= deadline;
  }

  /** The awaiting deadline passed: release with the missing-document findings. */
  deadlineReached(): void {
    this.s.deadlinePassed = true;
    this.s.reassessmentPending = true;
  }

  /** A release waits at the release gate, and why. */
  waitAtGate(gate: { releaseId: string; reason: string }): void {
    this.s.gate = gate;
  }

  /**
   * The release leaves the gate: 'approved' (the approval is used up, and the hold it answered lifted), or
   * 'stale' when new documents arrived meanwhile (analysed first; the gate is met again after).
   */
  leaveGate(): 'approved' | 'stale' {
    this.s.gate = null;
    if (!this.s.approved) return 'stale';
    this.s.approved = false;
    this.s.holdRequested = false;
    return 'approved';
  }

  /** An operator approved the release waiting at the gate. */
  approve(): void {
    this.s.approved = true;
  }

  /** An operator asked to hold the next release, or lifted that hold. */
  setHold(held: boolean): void {
    this.s.holdRequested = held;
  }

  /** A release is published. */
  released(): void {
    this.s.releases += 1;
  }
}
