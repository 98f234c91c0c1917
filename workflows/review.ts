// The review workflow: the single owner of one review's state (workflow id = review id). It decides;
// activities write the read model and do all I/O.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import { InternalStateKey, ReviewStatusKey } from './search-attributes.js';
import type { ReviewActivities } from '../activities/index.js';
import {
  ADD_REJECTIONS,
  CREATE_REJECTIONS,
  addDocumentsUpdate,
  createReviewUpdate,
  getStateQuery,
  type AddDocumentsRequest,
  type CreateReviewRequest,
  type ReviewWorkflowInput,
  type ReviewWorkflowState,
} from './messages.js';
import { customerStatus } from './states.js';
import type { AddDocumentsResult } from '../src/reviews/add-documents.js';

const REJECTIONS: readonly string[] = [...new Set([...CREATE_REJECTIONS, ...ADD_REJECTIONS])];

// Unpacking a large package takes a while; a refusal is final, anything else is retried.
const ingest = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [...REJECTIONS] },
});

const readModel = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  // A create waits for its row, so its retries are bounded: an integrator gets an answer, not a hang.
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '250 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...CREATE_REJECTIONS] },
});

export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<ReviewWorkflowState> {
  const state: ReviewWorkflowState = {
    reviewId: input.reviewId,
    organizationId: input.organizationId,
    sandbox: input.sandbox,
    internalState: input.resumed?.internalState ?? 'ingesting',
    created: input.resumed !== undefined,
    rejection: null,
    reassessmentPending: false,
  };
  // Submissions to one review are ingested one at a time, so each sees the documents of the one before.
  let adding = false;

  setHandler(getStateQuery, () => state);

  /** What operators read on the workflow's page in the Temporal UI. */
  const showState = () => setCurrentDetails(`**${customerStatus(state.internalState)}** (internal state \`${state.internalState}\`)`);

  /** Moves to an internal state: search attributes and the UI follow (the read model is written by the activity). */
  const enter = (next: ReviewWorkflowState['internalState']) => {
    state.internalState = next;
    upsertSearchAttributes([
      { key: ReviewStatusKey, value: customerStatus(next) },
      { key: InternalStateKey, value: next },
    ]);
    showState();
  };

  setHandler(
    createReviewUpdate,
    async (request: CreateReviewRequest) => {
      try {
        const { files, sources, ...fields } = request;
        const { documents, staged } = await ingest.ingestSubmission.executeWithOptions(
          { summary: `Ingest ${files.length} upload(s) and ${sources.length} source URL(s)` },
          [{ reviewId: input.reviewId, target: { kind: 'create' }, files, sources }],
        );
        const review = await readModel.createReviewRecord.executeWithOptions(
          { summary: 'Record the review and its documents' },
          [
            {
              ...input,
              ...fields,
              documents,
              staged,
              status: customerStatus(state.internalState),
              internalState: state.internalState,
            },
          ],
        );
        state.created = true;
        if (!state.sandbox) return review;
        // A sandbox review never enters the pipeline: its canned report is released at once (RULES.md).
        const released = await readModel.releaseSandboxReport.executeWithOptions({ summary: 'Release the canned sandbox report' }, [
          { reviewId: input.reviewId, releaseId: uuid4(), generatedAt: new Date().toISOString() },
        ]);
        enter('released');
        return released;
      } catch (err) {
        const rejection = rejectionOf(err);
        state.rejection = rejection;
        throw ApplicationFailure.create({ type: rejection.code, message: rejection.message, nonRetryable: true });
      }
    },
    {
      // Synchronous: a second create on the same workflow is refused before it reaches history.
      validator: (_request: CreateReviewRequest) => {
        if (state.created || state.rejection) throw new Error('this review has already been created');
      },
    },
  );

  setHandler(
    addDocumentsUpdate,
    async ({ files, sources }: AddDocumentsRequest): Promise<AddDocumentsResult> => {
      // A loop, not one wait: handlers waiting together are all released together, and only one may go.
      while (adding) await condition(() => !adding);
      adding = true;
      try {
        const { documents, staged } = await ingest.ingestSubmission.executeWithOptions(
          { summary: `Add documents: ${files.length} upload(s) and ${sources.length} source URL(s)` },
          [{ reviewId: input.reviewId, target: { kind: 'add', reviewId: input.reviewId }, files, sources }],
        );
        const { evidenceAdded } = await readModel.recordAddedDocuments.executeWithOptions(
          { summary: 'Record the added documents' },
          [{ reviewId: input.reviewId, documents, staged }],
        );
        // A sandbox review is never analysed: its documents are kept, its canned result stands (DECISIONS 8).
        if (evidenceAdded > 0 && !state.sandbox) state.reassessmentPending = true;
        return {
          review_id: input.reviewId,
          status: customerStatus(state.internalState),
          documents_ingested: evidenceAdded,
          // The decisions of a working document (fields named by src/report/render.ts) are applied with the
          // orchestration work; until then none are reported.
          dispositions: [],
          dispositions_applied: 0,
          dispositions_failed: 0,
          dispositions_skipped: 0,
        };
      } catch (err) {
        const rejection = rejectionOf(err);
        throw ApplicationFailure.create({ type: rejection.code, message: rejection.message, nonRetryable: true });
      } finally {
        adding = false;
      }
    },
    {
      validator: (_request: AddDocumentsRequest) => {
        if (!state.created) throw ApplicationFailure.create({ type: 'review_not_found', message: 'No such review.', nonRetryable: true });
        if (state.internalState === 'failed') {
          throw ApplicationFailure.create({ type: 'review_failed', message: 'The review failed; documents can no longer be added.', nonRetryable: true });
        }
      },
    },
  );

  await condition(() => state.created || state.rejection !== null);
  if (!state.created) {
    // A rejected create leaves no review: let the update reply, then end.
    await condition(allHandlersFinished);
    return state;
  }
  // Search attributes for this first state were set at start by the API.
  showState();

  // The analysis pipeline joins here (orchestration issue). Until then the review stays `processing` and
  // the workflow stays open, as a released review will, for the messages that follow it.
  await condition(() => false);
  return state;
}

function rejectionOf(err: unknown): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && REJECTIONS.includes(cause.type)) {
    return { code: cause.type, message: cause.message };
  }
  return { code: 'internal_error', message: 'The review could not be recorded; retry later.' };
}
