// What follows a transition of the review's state (review-state.ts, which it owns) for the world outside:
// the read model in Postgres (written in the order of the transitions), the search attributes, the
// Temporal UI's current details, and the webhooks a transition announces.
import { setCurrentDetails, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { customerStatus, type InternalState } from '../src/reviews/states.js';
import type { WebhookEvent } from '../src/webhooks/payload.js';
import { bookkeeper } from './activity-options.js';
import { deliverEvent } from './deliveries.js';
import type { ReviewWorkflowInput, ReviewWorkflowState } from './messages.js';
import { InternalStateKey, ReviewStatusKey } from '../src/temporal/search-attribute-keys.js';
import { ReviewState } from './review-state.js';

export class ReviewProgress {
  /** The review's state: its transitions are the only writers (review-state.ts). */
  readonly review: ReviewState;
  /** Read-model writes, chained so that they land in the order of the transitions. */
  private projection: Promise<void> = Promise.resolve();
  private readonly announcements: Promise<void>[] = [];
  /** Read-model writes and announcements not yet done: the run has work in flight while any is. */
  private outstanding = 0;

  constructor(private readonly input: ReviewWorkflowInput) {
    this.review = new ReviewState(input);
  }

  /** The review's state as it stands, read-only. */
  get state(): Readonly<ReviewWorkflowState> {
    return this.review.now;
  }

  /** What operators read on the workflow's page in the Temporal UI (Markdown). */
  show(): void {
    const { internalState, releases, detail, gate, disputes, lastAnalysis } = this.state;
    const lines = [
      `**${customerStatus(internalState)}** (internal state \`${internalState}\`), ${releases} release(s)`,
    ];
    if (detail) lines.push('', detail);
    if (gate && internalState === 'release_gate') {
      lines.push(
        '',
        `**Waiting at the release gate:** release \`${gate.releaseId}\` (${gate.reason}). Approve it ` +
          `with the \`approve\` update.`,
      );
    }
    if (disputes.length > 0) {
      const more = (lastAnalysis?.disputed ?? disputes.length) - disputes.length;
      lines.push('', `**Disputed by the lender** (${lastAnalysis?.disputed ?? disputes.length}):`);
      for (const d of disputes) {
        const said = d.comment ? `: “${d.comment.replace(/\s+/g, ' ')}”` : ', no comment';
        lines.push(`- \`${d.findingId}\` ${d.title}${said} (${d.sentBy ?? 'sender not recorded'}, ${d.decidedAt})`);
      }
      if (more > 0) lines.push(`- and ${more} more`);
    }
    setCurrentDetails(lines.join('\n'));
  }

  /** Shows a new `detail` without a transition. */
  explain(detail: string): void {
    this.review.explain(detail);
    this.show();
  }

  /**
   * Moves to an internal state: search attributes, the UI and (unless an activity already wrote it) the
   * read model follow. Resolves once every transition so far is in the read model.
   */
  enter(next: InternalState, o: { detail?: string | null; recorded?: boolean } = {}): Promise<void> {
    this.review.moveTo(next, o.detail ?? null);
    upsertSearchAttributes([
      { key: ReviewStatusKey, value: customerStatus(next) },
      { key: InternalStateKey, value: next },
    ]);
    this.show();
    if (!o.recorded) {
      const write = {
        reviewId: this.input.reviewId,
        internalState: next,
        status: customerStatus(next),
        detail: this.state.detail ?? undefined,
        at: new Date().toISOString(),
      };
      this.projection = this.tracked(
        this.projection.then(() => bookkeeper.recordState.executeWithOptions({ summary: `Record ${next}` }, [write])),
      );
    }
    return this.projection;
  }

  /** Resolves once every transition so far is in the read model. */
  recorded(): Promise<void> {
    return this.projection;
  }

  /**
   * Sends an event to every endpoint of the review's organization and mode; never blocks the review. The
   * event gets its id here, once, so every endpoint and every attempt carries the same. `releaseId` is the
   * release it announces (null for review.failed; undefined where the workflow does not hold it, the
   * sandbox's canned release: the event is recorded with the review's current one). `occurredAt` is a
   * release's own time for the events that announce one (now, for the others).
   */
  announce(event: WebhookEvent, releaseId: string | null | undefined, occurredAt = new Date().toISOString()): void {
    const { reviewId, organizationId, sandbox } = this.input;
    const eventId = uuid4();
    const fanOut = async () => {
      const endpoints = await bookkeeper.publishEvent.executeWithOptions({ summary: `Record ${event}` }, [
        {
          eventId,
          reviewId,
          organizationId,
          sandbox,
          event,
          occurredAt,
          ...(releaseId !== undefined ? { releaseId } : {}),
        },
      ]);
      // Best effort (interface, "Events"): an endpoint that fails every attempt changes nothing here.
      await Promise.allSettled(endpoints.map((endpointId) => deliverEvent(endpointId, eventId, event)));
    };
    this.announcements.push(this.tracked(fanOut().catch(() => undefined)));
  }

  /** Whether every transition is in the read model and every announcement delivered (or given up). */
  get settledNow(): boolean {
    return this.outstanding === 0;
  }

  private tracked(work: Promise<void>): Promise<void> {
    this.outstanding += 1;
    // Counted down however it ends; the promise returned is the work's own, failures included.
    void work.then(
      () => void (this.outstanding -= 1),
      () => void (this.outstanding -= 1),
    );
    return work;
  }

  /** Resolves once the read model is written and every announcement delivered (or given up). */
  async settled(): Promise<void> {
    await Promise.all(this.announcements);
    await this.projection;
  }
}
