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
} from '@temporalio/workflow';
import type { ReviewActivities } from '../activities/index.js';
import {
  CREATE_REJECTIONS,
  createReviewUpdate,
  getStateQuery,
  type CreateReviewRequest,
  type ReviewWorkflowInput,
  type ReviewWorkflowState,
} from './messages.js';
import { customerStatus } from './states.js';

// Unpacking a large package takes a while; a refusal is final, anything else is retried.
const ingest = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [...CREATE_REJECTIONS] },
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
    internalState: 'ingesting',
    created: false,
    rejection: null,
  };

  setHandler(getStateQuery, () => state);

  setHandler(
    createReviewUpdate,
    async (request: CreateReviewRequest) => {
      try {
        const { files, sources, ...fields } = request;
        const { documents, staged } = await ingest.ingestSubmission.executeWithOptions(
          { summary: `Ingest ${files.length} upload(s) and ${sources.length} source URL(s)` },
          [{ reviewId: input.reviewId, files, sources }],
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
        return review;
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

  await condition(() => state.created || state.rejection !== null);
  if (!state.created) {
    // A rejected create leaves no review: let the update reply, then end.
    await condition(allHandlersFinished);
    return state;
  }
  // Search attributes for this first state were set at start by the API.
  setCurrentDetails(`**${customerStatus(state.internalState)}** (internal state \`${state.internalState}\`)`);

  // The analysis pipeline joins here (orchestration issue). Until then the review stays `processing` and
  // the workflow stays open, as a released review will, for the messages that follow it.
  await condition(() => false);
  return state;
}

function rejectionOf(err: unknown): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && (CREATE_REJECTIONS as readonly string[]).includes(cause.type)) {
    return { code: cause.type, message: cause.message };
  }
  return { code: 'internal_error', message: 'The review could not be recorded; retry later.' };
}
