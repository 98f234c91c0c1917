// A review's workflow runs as the API and the worker's retention reach them: how a run starts (the same
// for a first run and one that continues a recorded review), an update sent to the running run or to a
// new one when the last has closed, and a deletion, which goes through the run and then deletes the
// histories of all the review's runs (which the run leaves a workflow to finish, should the caller stop).
import {
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  type Client,
  type WorkflowStartOptions,
} from '@temporalio/client';
import type { ReviewRecord } from '../db/reviews.js';
import { customerStatus, type InternalState } from '../reviews/states.js';
import {
  InternalStateKey,
  OrgIdKey,
  ReferenceIdKey,
  ReviewStatusKey,
  ReviewTypeKey,
  SandboxKey,
} from './search-attribute-keys.js';
import { deleteReviewUpdate, type DeleteReviewRequest, type ReviewWorkflowInput } from '../../workflows/messages.js';
import type { reviewWorkflow } from '../../workflows/review.js';
import { processLog } from '../telemetry/pino-logger.js';

/** What a run shows operators besides its input: the same for a first run and one that continues it. */
export interface ReviewRunLabels {
  reviewType: string;
  referenceId: string | null;
  label: string | null;
  metadata: Record<string, string> | null;
}

/** How a review's workflow run starts: a first run and a later one look the same to operators in the UI. */
export function reviewStartOptions(
  taskQueue: string,
  input: ReviewWorkflowInput,
  conflictPolicy: 'FAIL' | 'USE_EXISTING',
  internalState: InternalState,
  o: ReviewRunLabels,
) {
  return {
    workflowId: input.reviewId,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: conflictPolicy,
    staticSummary: `Review ${o.referenceId ?? o.label ?? input.reviewId}`,
    staticDetails: `Organization \`${input.organizationId}\`${input.sandbox ? ' (sandbox)' : ''}`,
    // Operators see the integrator's metadata here; the Review object does not carry it (decisions.md, "Metadata").
    memo: { metadata: o.metadata ?? {} },
    typedSearchAttributes: [
      // A create's review exists only once its submission is accepted: until then it has no status, so
      // a create that is refused never shows as a review in operators' `ReviewStatus` searches.
      ...(input.resumed ? [{ key: ReviewStatusKey, value: customerStatus(internalState) }] : []),
      { key: InternalStateKey, value: internalState },
      { key: OrgIdKey, value: input.organizationId },
      { key: SandboxKey, value: input.sandbox },
      { key: ReviewTypeKey, value: o.reviewType },
      ...(o.referenceId ? [{ key: ReferenceIdKey, value: o.referenceId }] : []),
    ],
  } satisfies WorkflowStartOptions<typeof reviewWorkflow>;
}

/** The start of a run that continues a recorded review, used when none is running. */
export function continuingRun(
  taskQueue: string,
  organizationId: string,
  { review, internalState, metadata }: ReviewRecord,
): WithStartWorkflowOperation<typeof reviewWorkflow> {
  const input: ReviewWorkflowInput = {
    reviewId: review.review_id,
    organizationId,
    sandbox: review.sandbox,
    resumed: { internalState },
  };
  return new WithStartWorkflowOperation<typeof reviewWorkflow>(
    'reviewWorkflow',
    reviewStartOptions(taskQueue, input, 'USE_EXISTING', internalState, {
      reviewType: review.review_type,
      referenceId: review.reference_id,
      label: review.label,
      metadata,
    }),
  );
}

/**
 * Sends an update to a review's run, starting a run that continues the review when none is running.
 * A released review's run completes once nothing is in flight: an update that reaches it in the moment
 * it completes is never accepted (Temporal answers "workflow execution already completed"), and sent
 * again it starts the next run. (Each attempt is a new operation: a with-start operation is used once.)
 */
export async function updateReviewRun<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError) || attempt === 3) throw err;
    }
  }
}

/**
 * Deletes a review through its workflow (a run that continues it is started when none is running): the
 * run stops the review's work, removes its documents, reports and rows, starts the workflow that deletes
 * its histories should this process not (workflows/history-deletion.ts), and ends; then Temporal is asked
 * to delete every run's history of the review. Resolves once the review is deleted and its histories asked
 * for; the workflow's refusal (a WorkflowUpdateFailedError) and Temporal's failures to take the update are
 * thrown, a failure to delete the histories is logged and left to that workflow.
 */
export async function deleteReviewRuns(
  temporal: Client,
  taskQueue: string,
  organizationId: string,
  record: ReviewRecord,
  request: DeleteReviewRequest,
): Promise<void> {
  const reviewId = record.review.review_id;
  await updateReviewRun(() =>
    temporal.workflow.executeUpdateWithStart(deleteReviewUpdate, {
      args: [request],
      startWorkflowOperation: continuingRun(taskQueue, organizationId, record),
    }),
  );
  // The run ends as the update answers; waited for a while, so that its own history goes now too.
  const handle = temporal.workflow.getHandle(reviewId);
  await temporal.withDeadline(Date.now() + 30_000, () => handle.result()).catch(() => undefined);
  await deleteReviewHistories(temporal, reviewId).catch((err: unknown) => {
    processLog.warn(`the histories of review ${reviewId} were not all deleted: its history-deletion workflow retries`, {
      review_id: reviewId,
      error: err,
    });
  });
}

/**
 * Asks Temporal to delete every run's history of the review. Throws, to be tried again, while its last
 * run has not ended (deleting a running run would terminate it) or Temporal does not answer. Runs already
 * deleted are not found, which is no failure: a deletion tried again deletes what is left.
 */
export async function deleteReviewHistories(temporal: Client, reviewId: string): Promise<void> {
  // The runs' histories hold the review's ids, labels and the like (sealed), and its reference in a search
  // attribute (plain): none is kept. Temporal deletes a history in the background once asked: a closed
  // run's within seconds where its history service records its queue's progress every second
  // (docs/operations.md#temporal-server-settings), minutes at Temporal's default of 30 s.
  const remove = (runId: string) =>
    temporal.workflowService
      .deleteWorkflowExecution({
        namespace: temporal.options.namespace,
        workflowExecution: { workflowId: reviewId, runId },
      })
      .then(
        () => undefined,
        (err: unknown) => {
          // Deleted already: the list still shows a run a moment after its history is gone.
          if (isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND) return;
          throw err;
        },
      );
  // The last run by its handle (the list may not show it yet), the earlier ones as the list shows them.
  let last: string | undefined;
  try {
    const run = await temporal.workflow.getHandle(reviewId).describe();
    if (run.status.name === 'RUNNING') throw new Error(`the last run of review ${reviewId} has not ended`);
    last = run.runId;
    await remove(last);
  } catch (err) {
    // No last run: deleted already.
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  for await (const run of temporal.workflow.list({ query: `WorkflowId = '${reviewId}'` }))
    if (run.runId !== last) await remove(run.runId);
}

/** gRPC's NOT_FOUND status, as Temporal's frontend answers for a run it does not have. */
const GRPC_NOT_FOUND = 5;
