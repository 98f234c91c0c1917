// Following a review through its workflow from the outside: the read model (rows and the transition log),
// the workflow's query, and the webhook endpoints an organization registers.
import { getReviewRecordById, reviewTransitions } from '../../src/db/reviews.js';
import { deliveryAttempts } from '../../src/db/webhook-deliveries.js';
import { ReviewSchema, type Review } from '../../src/reviews/review.js';
import type { ReviewWorkflowState } from '../../workflows/messages.js';
import { WorkflowUpdateFailedError, type WorkflowExecutionDescription } from '@temporalio/client';
import proto from '@temporalio/proto';
import { InternalStateKey } from '../../src/temporal/search-attribute-keys.js';
import { queryState } from './history-outline.js';
import { call } from './http.js';
import { onThisMachine } from './machine-load.js';

import { db, stack, temporalClient } from './stack.js';

/**
 * Waits until the review (as the read model serves it) satisfies `done`, then reads it once through the
 * API as the integrator would. Polls the database, not the API, so the wait spends none of the
 * organization's rate limit.
 */
export async function waitForReview(
  key: string,
  reviewId: string,
  done: (r: Review) => boolean,
  timeoutMs = 60_000,
  base = stack.apiUrl,
): Promise<Review> {
  // Stretched by the machine's load as it is checked (machine-load.ts): a review analysed on a machine
  // running several times what it has cores for is that much slower, and not stuck.
  const started = Date.now();
  let last: Review | undefined;
  for (;;) {
    last = await getReviewRecordById(db(), reviewId);
    if (last && done(last)) break;
    if (Date.now() > started + onThisMachine(timeoutMs)) {
      // What the workflow says of its last analysis (documents unreadable, a primary document found) tells
      // a failure's reader why the review stopped where it did.
      const workflow = await workflowState(reviewId).then(
        ({ internalState, lastAnalysis, detail }) => JSON.stringify({ internalState, lastAnalysis, detail }),
        (err: unknown) => `not queried: ${String(err)}`,
      );
      throw new Error(`review ${reviewId} never got there; last seen ${JSON.stringify(last)}; workflow ${workflow}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await call(base, 'GET', `/reviews/${reviewId}`, { key });
  if (res.status !== 200) throw new Error(`GET review: ${res.status} ${res.text}`);
  return ReviewSchema.parse(res.body);
}

/** Polls the read model until the review is in `internalState`. */
export async function waitForInternalState(reviewId: string, internalState: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db()`select internal_state from reviews where id = ${reviewId}`;
    if (row?.internal_state === internalState) return;
    if (Date.now() > deadline)
      throw new Error(`review ${reviewId} never reached ${internalState}; it is ${String(row?.internal_state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Resolves once the review's analysis activity runs on a worker (not only waits on the analysis queue),
 * as Temporal describes the review's run.
 */
export async function analysisRunning(reviewId: string, timeoutMs = 120_000): Promise<void> {
  const handle = (await temporalClient()).workflow.getHandle(reviewId);
  const { PENDING_ACTIVITY_STATE_STARTED } = proto.temporal.api.enums.v1.PendingActivityState;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { raw } = await handle.describe();
    const running = raw.pendingActivities?.some(
      (a) => a.activityType?.name === 'analyseToDraft' && a.state === PENDING_ACTIVITY_STATE_STARTED,
    );
    if (running) return;
    if (Date.now() > deadline) throw new Error(`review ${reviewId}: its analysis did not start within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The workflow's description once its search attributes show `internalState`. They follow the read model,
 * not with it: the row is written by an activity, the attributes when the workflow task that follows it
 * completes, which on a loaded machine is seconds later.
 */
export async function describedAt(
  reviewId: string,
  internalState: string,
  timeoutMs = 30_000,
): Promise<WorkflowExecutionDescription> {
  const handle = (await temporalClient()).workflow.getHandle(reviewId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const description = await handle.describe();
    const shown = description.typedSearchAttributes.get(InternalStateKey);
    if (shown === internalState) return description;
    if (Date.now() > deadline)
      throw new Error(
        `review ${reviewId}'s search attributes never showed ${internalState}; they show ${String(shown)}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The internal states a review went through, in order. */
export async function transitions(reviewId: string): Promise<string[]> {
  return (await reviewTransitions(db(), reviewId)).map((t) => t.internalState);
}

export async function workflowState(reviewId: string): Promise<ReviewWorkflowState> {
  return queryState((await temporalClient()).workflow.getHandle(reviewId));
}

interface HandlerDefinition {
  name: string;
  description: string;
}

/** What the Temporal UI shows of a workflow: its current details and its handlers with their descriptions. */
export async function workflowMetadata(reviewId: string): Promise<{
  currentDetails: string;
  definition: {
    queryDefinitions: HandlerDefinition[];
    signalDefinitions: HandlerDefinition[];
    updateDefinitions: HandlerDefinition[];
  };
}> {
  return (await temporalClient()).workflow.getHandle(reviewId).query('__temporal_workflow_metadata');
}

/** The message an operator's update was refused with (its validator's), or a failure when it was not. */
export async function operatorRefusal(update: Promise<unknown>): Promise<string> {
  try {
    await update;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause) return err.cause.message;
    throw err;
  }
  throw new Error('the update was accepted');
}

/** Registers a webhook endpoint for the key's organization and mode; returns its signing secret. */
export async function registerEndpoint(key: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await call(stack.apiUrl, 'POST', '/webhook-endpoints', { key, json: { url } });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  const body = res.body as { id: string; signing_secret: string };
  return { id: body.id, secret: body.signing_secret };
}

/** The delivery attempts recorded for a review, oldest first. */
export function deliveryRows(reviewId: string) {
  return deliveryAttempts(db(), reviewId);
}
