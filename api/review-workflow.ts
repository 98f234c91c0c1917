// Starting and updating a review's workflow for the API: create and add-documents are updates-with-start
// (the running workflow takes them; a review whose run has closed gets a new run that continues it), and
// the workflow's refusals come back as the API's errors. The routes only map HTTP to these calls.
import type { Context as TraceContext } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { inTrace } from './request-tracing.js';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
  type Client,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ReviewRecord } from '../src/db/reviews.js';
import { ERROR_CATALOG, isErrorCode, type FixedStatusCode } from '../src/errors/catalog.js';
import type { StagedFile } from '../src/reviews/staged-file.js';
import type { AddDocumentsResult } from '../src/reviews/add-documents.js';
import type { CreateReviewJson, DocumentSource, Review } from '../src/reviews/review.js';
import { continuingRun, deleteReviewRuns, reviewStartOptions, updateReviewRun } from '../src/temporal/review-runs.js';
import {
  addDocumentsUpdate,
  createReviewUpdate,
  holdUpdate,
  type DeleteReviewRequest,
  type ReviewWorkflowInput,
} from '../workflows/messages.js';
import type { resendEventWorkflow } from '../workflows/deliveries.js';
import type { reviewWorkflow } from '../workflows/review.js';
import type { Caller } from './auth.js';
import { ApiError } from './errors.js';

export type CreateFields = Omit<CreateReviewJson, 'documents'>;

/**
 * How long a create's workflow has to accept its update: past it the workflow refuses the create unread
 * (workflows/submissions.ts), so that a create the API gave up on never becomes a review.
 */
export const CREATE_ACCEPT_MS = 7_000;
/**
 * How much longer the API waits for the acceptance before it answers 503: room for the answer's way back
 * and for the clocks of the API and Temporal to differ, so an update accepted in time is never given up on.
 */
export const CREATE_ACCEPT_GRACE_MS = 2_000;

/** The answer when a submission's workflow did not take it in time: it will never be a review, nor added. */
const notTaken = () =>
  new ApiError(
    'service_unavailable',
    503,
    "The service could not take this now (the review's workflow did not take it in time); nothing was kept. " +
      'Retry shortly (a create with the same Idempotency-Key).',
    {
      logAs:
        `its workflow did not take the submission within ${(CREATE_ACCEPT_MS + CREATE_ACCEPT_GRACE_MS) / 1000} s ` +
        '(service_unavailable)',
    },
  );

export class ReviewWorkflows {
  constructor(
    private readonly temporal: Client,
    private readonly taskQueue: string,
  ) {}

  /**
   * Sends an event again to one endpoint (its own workflow: the attempts and the pace as for the first
   * delivery, each recorded in the endpoint's delivery log); resolves once Temporal has it.
   */
  async resendEvent(endpointId: string, eventId: string): Promise<void> {
    try {
      await this.temporal.workflow.start<typeof resendEventWorkflow>('resendEventWorkflow', {
        workflowId: `webhook-resend-${eventId}-${randomUUID()}`,
        taskQueue: this.taskQueue,
        args: [{ endpointId, eventId }],
      });
    } catch (err) {
      throw new ApiError('service_unavailable', 503, 'The event could not be sent again now; retry shortly.', {
        logAs: `starting the resend failed: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }

  /**
   * Starts the review's workflow with its create (update-with-start) and resolves once the workflow has
   * accepted it, within CREATE_ACCEPT_MS and its grace: the update's handle, whose result is the Review or
   * a refusal (`createOutcome`). Not accepted in time, or Temporal not reached: 503, and the create will
   * never become a review (the workflow refuses it unread past its accept time).
   */
  async startCreate(o: {
    who: Caller;
    requestId: string;
    reviewId: string;
    reviewType: string;
    fields: CreateFields;
    files: StagedFile[];
    sources: DocumentSource[];
    /** The request's trace: the update is a span of it (api/request-tracing.ts). */
    trace?: TraceContext | undefined;
  }): Promise<WorkflowUpdateHandle<Review>> {
    const input: ReviewWorkflowInput = {
      reviewId: o.reviewId,
      organizationId: o.who.organizationId,
      sandbox: o.who.sandbox,
    };
    const start = new WithStartWorkflowOperation<typeof reviewWorkflow>(
      'reviewWorkflow',
      reviewStartOptions(this.taskQueue, input, 'FAIL', 'ingesting', {
        reviewType: o.reviewType,
        referenceId: o.fields.reference_id ?? null,
        label: o.fields.label ?? null,
        metadata: o.fields.metadata ?? null,
      }),
    );
    return this.acceptedInTime((acceptBy) =>
      inTrace(o.trace, () =>
        this.temporal.workflow.startUpdateWithStart(createReviewUpdate, {
          waitForStage: WorkflowUpdateStage.ACCEPTED,
          args: [
            {
              reviewType: o.reviewType,
              label: o.fields.label ?? null,
              referenceId: o.fields.reference_id ?? null,
              metadata: o.fields.metadata ?? null,
              createdAt: new Date().toISOString(),
              acceptBy,
              files: o.files,
              sources: o.sources,
              requestId: o.requestId,
            },
          ],
          startWorkflowOperation: start,
        }),
      ),
    );
  }

  /**
   * Sends documents to a recorded review (update-with-start: a run that continues the review is started
   * when its last one has closed) and resolves once its workflow has accepted them, within the same accept
   * time as a create: not accepted in time, 503, and the documents are never added.
   */
  async startAdd(o: {
    who: Caller;
    requestId: string;
    record: ReviewRecord;
    files: StagedFile[];
    sources: DocumentSource[];
    /** The request's trace: the update is a span of it (api/request-tracing.ts). */
    trace?: TraceContext | undefined;
  }): Promise<WorkflowUpdateHandle<AddDocumentsResult>> {
    return this.acceptedInTime((acceptBy) =>
      updateReviewRun(() =>
        inTrace(o.trace, () =>
          this.temporal.workflow.startUpdateWithStart(addDocumentsUpdate, {
            args: [{ files: o.files, sources: o.sources, requestId: o.requestId, apiKeyId: o.who.keyId, acceptBy }],
            startWorkflowOperation: continuingRun(this.taskQueue, o.who.organizationId, o.record),
            waitForStage: WorkflowUpdateStage.ACCEPTED,
          }),
        ),
      ),
    );
  }

  /** What an accepted create or addition answers (the Review, the Add-documents result), or its refusal. */
  async outcome<T>(update: WorkflowUpdateHandle<T>): Promise<T> {
    try {
      return await update.result();
    } catch (err) {
      throw rejectionToApiError(err);
    }
  }

  /**
   * Sends a submission's update, which its workflow refuses unread past `acceptBy` (CREATE_ACCEPT_MS from
   * now), and waits for its acceptance until CREATE_ACCEPT_GRACE_MS later: the update's handle, or 503 when
   * it was not accepted by then (Temporal not reached, or no worker took it).
   */
  private async acceptedInTime<T>(
    send: (acceptBy: string) => Promise<WorkflowUpdateHandle<T>>,
  ): Promise<WorkflowUpdateHandle<T>> {
    const acceptBy = Date.now() + CREATE_ACCEPT_MS;
    const giveUpAt = acceptBy + CREATE_ACCEPT_GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(notTaken()), giveUpAt - Date.now());
    });
    try {
      const accepted = this.temporal.withDeadline(giveUpAt, () => send(new Date(acceptBy).toISOString()));
      // Settled either way, so that a late failure is never an unhandled rejection.
      accepted.catch(() => {});
      return await Promise.race([accepted, gaveUp]);
    } catch (err) {
      throw notAccepted(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Operator: holds the review's next release at the release gate. When its run has completed (a released
   * review's does once nothing is in flight) this starts the run that continues it, which keeps the hold
   * until documents arrive or an approve lifts it. Answers in words; a refusal is thrown in its words.
   */
  async hold(organizationId: string, record: ReviewRecord): Promise<string> {
    try {
      return await updateReviewRun(() =>
        this.temporal.workflow.executeUpdateWithStart(holdUpdate, {
          startWorkflowOperation: continuingRun(this.taskQueue, organizationId, record),
        }),
      );
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause) throw new Error(err.cause.message);
      throw err;
    }
  }

  /**
   * Deletes a review through its workflow and then its runs' histories (src/temporal/review-runs.ts);
   * resolves once all of it is done. Temporal not reached, or the run not done in time: 503.
   */
  async delete(who: Caller, record: ReviewRecord): Promise<void> {
    const request: DeleteReviewRequest = { requestedBy: `api_key:${who.keyId}`, requestedAt: new Date().toISOString() };
    try {
      await deleteReviewRuns(this.temporal, this.taskQueue, who.organizationId, record, request);
    } catch (err) {
      throw new ApiError('service_unavailable', 503, 'The review could not be deleted now; retry shortly.', {
        logAs: `deleting review ${record.review.review_id} failed: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
}

/** Why a submission was not accepted: Temporal's refusal, or (anything else) not taken in time. */
function notAccepted(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  if (err instanceof WorkflowExecutionAlreadyStartedError || err instanceof WorkflowUpdateFailedError)
    return rejectionToApiError(err);
  return notTaken();
}

function rejectionToApiError(err: unknown): unknown {
  // A resumed Idempotency-Key whose review's workflow exists but has not written the review yet.
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return new ApiError(
      'service_unavailable',
      503,
      'This review is still being created; retry shortly with the same Idempotency-Key.',
    );
  }
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type) {
    const [param] = err.cause.details ?? [];
    return refusalToApiError(
      { code: err.cause.type, message: err.cause.message, ...(typeof param === 'string' ? { param } : {}) },
      err,
    );
  }
  return err;
}

/**
 * A submission's refusal as the API's error: its code's status; a refusal of a field (a source URL that
 * cannot be fetched) is a 422 naming the field. A code the catalog has no fixed status for is `otherwise`.
 */
export function refusalToApiError(
  { code, message, param }: { code: string; message: string; param?: string },
  otherwise: unknown = new Error(`${code}: ${message}`),
): unknown {
  if (code === 'invalid_request') return new ApiError('invalid_request', 422, message, { param });
  // The workflow took the create too late to read it: as if it had not taken it at all.
  if (code === 'service_unavailable') return notTaken();
  if (isErrorCode(code) && code !== 'internal_error' && typeof ERROR_CATALOG[code].status === 'number') {
    return ApiError.of(code as FixedStatusCode, message, param);
  }
  return otherwise;
}
