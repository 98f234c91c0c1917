// Following a review through its workflow from the outside: the read model (rows and the transition log),
// the workflow's query, and the webhook endpoints an organization registers.
import { getReviewRecordById, reviewTransitions } from '../../src/db/reviews.js';
import { deliveryAttempts } from '../../src/db/webhook-deliveries.js';
import { ReviewSchema, type Review } from '../../src/reviews/review.js';
import { getStateQuery, type ReviewWorkflowState } from '../../workflows/messages.js';
import { WorkflowUpdateFailedError, type WorkflowExecutionDescription } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { temporal as Api } from '@temporalio/proto';
import { InternalStateKey } from '../../src/temporal/search-attribute-keys.js';
import { call } from './http.js';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal } = proto;
import { db, stack, temporalClient } from './stack.js';

/**
 * Waits until the review (as the read model serves it) satisfies `done`, then reads it once through the
 * API as the integrator would. Polls the database, not the API, so the wait spends none of the
 * organization's rate limit.
 */
export async function waitForReview(key: string, reviewId: string, done: (r: Review) => boolean, timeoutMs = 60_000, base = stack.apiUrl): Promise<Review> {
  const deadline = Date.now() + timeoutMs;
  let last: Review | undefined;
  for (;;) {
    last = await getReviewRecordById(db(), reviewId);
    if (last && done(last)) break;
    if (Date.now() > deadline) throw new Error(`review ${reviewId} never got there; last seen ${JSON.stringify(last)}`);
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
    if (Date.now() > deadline) throw new Error(`review ${reviewId} never reached ${internalState}; it is ${String(row?.internal_state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The workflow's description once its search attributes show `internalState`. They follow the read model,
 * not with it: the row is written by a local activity inside a workflow task, the attributes when that
 * task completes, which on a loaded machine is seconds later.
 */
export async function describedAt(reviewId: string, internalState: string, timeoutMs = 30_000): Promise<WorkflowExecutionDescription> {
  const handle = (await temporalClient()).workflow.getHandle(reviewId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const description = await handle.describe();
    const shown = description.typedSearchAttributes.get(InternalStateKey);
    if (shown === internalState) return description;
    if (Date.now() > deadline) throw new Error(`review ${reviewId}'s search attributes never showed ${internalState}; they show ${String(shown)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The internal states a review went through, in order. */
export async function transitions(reviewId: string): Promise<string[]> {
  return (await reviewTransitions(db(), reviewId)).map((t) => t.internalState);
}

export async function workflowState(reviewId: string): Promise<ReviewWorkflowState> {
  const handle = (await temporalClient()).workflow.getHandle(reviewId);
  try {
    return await handle.query(getStateQuery);
  } catch (err) {
    // A query of a closed review replays its history; a replay that fails (TMPRL1100) is a defect of the
    // workflow's code, and the history that made it is what a fix needs. CI's output is all that is kept
    // of a CI run, so its outline goes into the error the test fails with.
    if (err instanceof Error && /TMPRL1100|nondeterminism/i.test(err.message)) {
      err.message += `\nhistory of ${reviewId}:\n${historyOutline(await handle.fetchHistory().catch(() => ({ events: [] })))}`;
    }
    throw err;
  }
}

/** A marker's name and what tells it apart: a patch's id, a local activity's type. */
function markerOutline(marker: Api.api.history.v1.IMarkerRecordedEventAttributes): string {
  const [payload] = Object.values(marker.details ?? {}).flatMap((d) => d.payloads ?? []);
  let detail: { id?: string; activity_type?: string } = {};
  try {
    detail = payload?.data ? (JSON.parse(new TextDecoder().decode(payload.data)) as typeof detail) : {};
  } catch {
    // Not JSON: the name alone.
  }
  return [marker.markerName, detail.id ?? detail.activity_type].filter(Boolean).join(' ');
}

/** One line per event: its id, type, and the name that tells events of a type apart (activity, marker, update, timer). */
function historyOutline(history: Api.api.history.v1.IHistory): string {
  return (history.events ?? [])
    .map((e) => {
      const name =
        e.activityTaskScheduledEventAttributes?.activityType?.name ??
        (e.markerRecordedEventAttributes ? markerOutline(e.markerRecordedEventAttributes) : undefined) ??
        e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ??
        e.workflowExecutionSignaledEventAttributes?.signalName ??
        (e.timerStartedEventAttributes ? `timer ${e.timerStartedEventAttributes.timerId}` : '');
      const flags = e.workflowTaskCompletedEventAttributes?.sdkMetadata?.langUsedFlags?.join(',');
      return `${String(e.eventId)} ${temporal.api.enums.v1.EventType[e.eventType ?? 0]} ${name}${flags ? ` flags ${flags}` : ''}`;
    })
    .join('\n');
}

interface HandlerDefinition {
  name: string;
  description: string;
}

/** What the Temporal UI shows of a workflow: its current details and its handlers with their descriptions. */
export async function workflowMetadata(reviewId: string): Promise<{
  currentDetails: string;
  definition: { queryDefinitions: HandlerDefinition[]; signalDefinitions: HandlerDefinition[]; updateDefinitions: HandlerDefinition[] };
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
