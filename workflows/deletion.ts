// A review's deletion, asked for by the API (deleteReviewUpdate): the review's work runs in a scope the
// request cancels; once that work has stopped (waited for, so that nothing writes after the purge: an
// analysis under way stops at the pages it is reading, a render under way is finished), its objects and
// rows are removed, the workflow that makes sure its histories go is started (history-deletion.ts) and the
// run ends. Deleting twice waits for the one deletion.
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  ParentClosePolicy,
  startChild,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { atRest } from '../src/reviews/states.js';
import { InternalStateKey, ReviewStatusKey } from '../src/temporal/search-attribute-keys.js';
import { bookkeeper } from './activity-options.js';
import { historiesDeletionId, reviewHistoriesDeletion } from './history-deletion.js';
import { NOT_AT_REST, type DeleteReviewRequest } from './messages.js';
import type { ReviewProgress } from './progress.js';

/** What the Temporal UI's search shows for a deleted review's last run. */
export const DELETED_STATE = 'deleted';

export class Deletion {
  private request: DeleteReviewRequest | null = null;
  private done = false;
  private readonly scope = new CancellationScope();

  constructor(private readonly progress: ReviewProgress) {}

  /**
   * Synchronous: a review never created has nothing to delete, and the retention's deletion is refused
   * unless the review is at rest (the update then never reaches history).
   */
  validate(request: DeleteReviewRequest): void {
    const { created, internalState } = this.progress.state;
    if (!created)
      throw ApplicationFailure.create({
        type: 'refused',
        message: 'There is no review to delete.',
        nonRetryable: true,
      });
    if (request.onlyAtRest && !atRest(internalState))
      throw ApplicationFailure.create({
        type: NOT_AT_REST,
        message: `The review is not at rest (${internalState}): it is kept.`,
        nonRetryable: true,
      });
  }

  /**
   * For the other updates' validators: once a deletion is asked for, the review is gone to them (an
   * addition would otherwise be ingested and then purged, or recorded after the purge).
   */
  refuseWhileDeleting(): void {
    if (this.request)
      throw ApplicationFailure.create({ type: 'review_not_found', message: 'No such review.', nonRetryable: true });
  }

  /** The update's handler: stops the review's work and waits until its data is gone. */
  async handle(request: DeleteReviewRequest): Promise<void> {
    this.request ??= request;
    this.scope.cancel();
    await condition(() => this.done);
  }

  /**
   * Runs the review's work; if a deletion stops it (or comes as it ends), deletes the review instead and
   * answers undefined.
   */
  async run<T>(work: () => Promise<T>): Promise<T | undefined> {
    let result: T | undefined;
    try {
      result = await this.scope.run(work);
    } catch (err) {
      if (!(this.request && isCancellation(err))) throw err;
    }
    if (!this.request) return result;
    const { reviewId } = this.progress.state;
    const { requestedBy, requestedAt } = this.request;
    await CancellationScope.nonCancellable(() =>
      bookkeeper.purgeReview.executeWithOptions({ summary: 'Delete the review' }, [
        { reviewId, requestedBy, requestedAt },
      ]),
    );
    upsertSearchAttributes([
      { key: InternalStateKey, value: DELETED_STATE },
      { key: ReviewStatusKey, value: null },
    ]);
    // Outlives this run (abandoned), so that the histories go whatever becomes of the deletion's asker.
    await startChild(reviewHistoriesDeletion, {
      workflowId: historiesDeletionId(reviewId),
      args: [reviewId],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    this.done = true;
    return undefined;
  }
}
