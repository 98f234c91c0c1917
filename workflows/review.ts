// The review workflow: the single owner of one review's state (workflow id = review id). It decides;
// activities do all I/O. Create and add-documents arrive as updates; then the pipeline runs: an analysis
// slot of the organization, the analysis, (waiting for primary documents), the report render, the release
// gate, the release, the webhooks; new evidence later re-assesses and amends. Every transition goes to
// the read model (in order), to search attributes and to the UI's current details.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { InternalStateKey, ReviewStatusKey } from './search-attributes.js';
import type { ReviewActivities } from '../activities/index.js';
import type { AnalysisResult, ReviewPolicy } from '../activities/analysis.js';
import type { Finding } from '../src/qc/finding.js';
import type { WebhookEvent } from '../src/webhooks/payload.js';
import {
  ADD_REJECTIONS,
  CREATE_REJECTIONS,
  addDocumentsUpdate,
  approveReleaseSignal,
  capacityFreedSignal,
  createReviewUpdate,
  getStateQuery,
  holdReleaseSignal,
  type AddDocumentsRequest,
  type CreateReviewRequest,
  type ReviewWorkflowInput,
  type ReviewWorkflowState,
} from './messages.js';
import { customerStatus, type InternalState } from '../src/reviews/states.js';
import type { AddDocumentsResult, Disposition } from '../src/reviews/add-documents.js';

const REJECTIONS: readonly string[] = [...new Set([...CREATE_REJECTIONS, ...ADD_REJECTIONS])];

/** A released review with nothing happening closes after this; adding documents later starts a new run. */
const IDLE_CLOSE_MS = 30 * 24 * 3600 * 1000;
/** A review waiting for an analysis slot asks again at least this often (besides being signalled). */
const MAX_SLOT_WAIT_MS = 30_000;
/** A blocked publication is retried with this backoff. */
const FIRST_PUBLICATION_RETRY_MS = 5_000;
const MAX_PUBLICATION_RETRY_MS = 5 * 60_000;

// Unpacking a large package takes a while; a refusal is final, anything else is retried.
const ingest = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [...REJECTIONS] },
});

// What an integrator's request waits for: bounded, so the request gets an answer, not a hang.
const requestWrites = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '250 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [...CREATE_REJECTIONS] },
});

// The pipeline's own bookkeeping: retried until the database answers again; nothing is skipped.
const bookkeeping = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '250 milliseconds', maximumInterval: '30 seconds' },
});

// The analysis heartbeats while it works, so a worker that dies mid-analysis is noticed in seconds and
// the analysis runs again elsewhere.
const analysis = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '60 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
});

// A render that cannot be produced or stored is retried a few times here, then by the workflow's
// publication_blocked loop.
const rendering = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

// Webhooks (interface, "Events"): the activity makes the 3 attempts, 0.5 s then 1 s apart, 10 s each,
// itself (src/webhooks/delivery.ts says why). Temporal retries it only when a worker dies mid-delivery;
// the heartbeat carries how many attempts were made.
const webhooks = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '45 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

function initialState(input: ReviewWorkflowInput): ReviewWorkflowState {
  if (input.carried) return { ...input.carried, approved: false };
  return {
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
    detail: null,
  };
}

export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<ReviewWorkflowState> {
  const state = initialState(input);
  const who = { reviewId: input.reviewId, organizationId: input.organizationId };
  // Submissions to one review are ingested one at a time, so each sees the documents of the one before.
  let adding = false;
  let capacityFreed = false;
  // Read-model writes are chained so that they land in the order of the transitions.
  let projection: Promise<void> = Promise.resolve();
  const announcements: Promise<void>[] = [];

  setHandler(getStateQuery, () => state);
  setHandler(holdReleaseSignal, () => void (state.holdRequested = true));
  setHandler(approveReleaseSignal, () => {
    if (state.internalState === 'release_gate') state.approved = true;
    else state.holdRequested = false;
  });
  setHandler(capacityFreedSignal, () => void (capacityFreed = true));

  /** What operators read on the workflow's page in the Temporal UI. */
  const showState = () =>
    setCurrentDetails(
      `**${customerStatus(state.internalState)}** (internal state \`${state.internalState}\`), ${state.releases} release(s)` +
        (state.detail ? `\n\n${state.detail}` : ''),
    );

  /** Moves to an internal state: search attributes, the UI and (unless already written) the read model follow. */
  const enter = (next: InternalState, o: { detail?: string | null; recorded?: boolean } = {}): Promise<void> => {
    state.internalState = next;
    state.detail = o.detail ?? null;
    upsertSearchAttributes([
      { key: ReviewStatusKey, value: customerStatus(next) },
      { key: InternalStateKey, value: next },
    ]);
    showState();
    if (!o.recorded) {
      const write = { ...who, internalState: next, status: customerStatus(next), detail: state.detail ?? undefined };
      projection = projection.then(() =>
        bookkeeping.recordState.executeWithOptions({ summary: `Record ${next}` }, [write]),
      );
    }
    return projection;
  };

  /** Sends an event to every endpoint of the review's organization and mode; never blocks the review. */
  const announce = (event: WebhookEvent): void => {
    const occurredAt = new Date().toISOString();
    const fanOut = async () => {
      const endpoints = await bookkeeping.webhookTargets({ organizationId: input.organizationId, sandbox: input.sandbox });
      // Best effort (interface, "Events"): an endpoint that fails every attempt changes nothing here.
      await Promise.allSettled(
        endpoints.map((endpointId) =>
          webhooks.deliverWebhook.executeWithOptions({ summary: `Deliver ${event} to endpoint ${endpointId}` }, [
            { endpointId, reviewId: input.reviewId, event, occurredAt },
          ]),
        ),
      );
    };
    announcements.push(fanOut().catch(() => undefined));
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
        const review = await requestWrites.createReviewRecord.executeWithOptions({ summary: 'Record the review and its documents' }, [
          { ...input, ...fields, documents, staged, status: customerStatus(state.internalState), internalState: state.internalState },
        ]);
        state.created = true;
        if (!state.sandbox) {
          state.reassessmentPending = true;
          return review;
        }
        // A sandbox review never enters the pipeline: its canned report is released at once (RULES.md).
        const released = await requestWrites.releaseSandboxReport.executeWithOptions({ summary: 'Release the canned sandbox report' }, [
          { reviewId: input.reviewId, releaseId: uuid4(), generatedAt: new Date().toISOString() },
        ]);
        state.releases = 1;
        void enter('released', { recorded: true });
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
        const recorded = await requestWrites.recordAddedDocuments.executeWithOptions({ summary: 'Record the added documents' }, [
          { reviewId: input.reviewId, documents, staged },
        ]);
        const dispositions: Disposition[] = [];
        for (const wd of recorded.workingDocuments) {
          dispositions.push(
            ...(await requestWrites.applyWorkingDocument.executeWithOptions({ summary: `Apply the decisions of the working document of release ${wd.releaseId}` }, [
              { reviewId: input.reviewId, objectKey: wd.objectKey, releaseId: wd.releaseId, uploaded: recorded.filenames },
            ])),
          );
        }
        const count = (outcome: Disposition['outcome']) => dispositions.filter((d) => d.outcome === outcome).length;
        // A sandbox review is never analysed: its documents are kept, its canned result stands (DECISIONS 8).
        if (!state.sandbox && (recorded.evidenceAdded > 0 || count('applied') > 0)) {
          state.reassessmentPending = true;
          // The integrator sees the re-assessment start with this answer (interface: "the response carries processing").
          if (state.internalState === 'released') await enter('amending');
          else if (state.internalState === 'awaiting_documents') await enter('analysing');
        }
        return {
          review_id: input.reviewId,
          status: customerStatus(state.internalState),
          documents_ingested: recorded.evidenceAdded,
          dispositions,
          dispositions_applied: count('applied'),
          dispositions_failed: count('failed'),
          dispositions_skipped: count('skipped'),
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
  showState();

  /** Ends this run once its handlers and webhooks are done: closed, or continued as a new run. */
  const finish = async (next: 'close' | 'continue'): Promise<ReviewWorkflowState> => {
    await condition(allHandlersFinished);
    await Promise.all(announcements);
    await projection;
    if (next === 'close') return state;
    return continueAsNew<typeof reviewWorkflow>({ reviewId: input.reviewId, organizationId: input.organizationId, sandbox: input.sandbox, carried: state });
  };

  const firstRun = !input.resumed && !input.carried;
  if (input.resumed) {
    state.releases = await bookkeeping.countReleases({ reviewId: input.reviewId });
    // A run that stopped mid-pipeline (terminated, or its history reset) starts the pipeline again.
    // (An awaiting review analyses again too: that sets its deadline afresh.)
    if (state.internalState !== 'released' && state.internalState !== 'failed') state.reassessmentPending = true;
  }

  if (state.sandbox) {
    if (firstRun) {
      // Announced once the canned release is committed (the create handler is still publishing it).
      await condition(() => state.releases > 0 || state.rejection !== null);
      if (state.releases > 0) announce('review.completed');
    }
    // Documents added to a sandbox review are kept; nothing else happens until the run closes.
    const woke = await condition(() => workflowInfo().continueAsNewSuggested, IDLE_CLOSE_MS);
    return finish(woke ? 'continue' : 'close');
  }

  for (;;) {
    if (!state.reassessmentPending) {
      const awaiting = state.internalState === 'awaiting_documents' && state.awaitingDeadline !== null;
      const timeout = awaiting ? Math.max(0, Date.parse(state.awaitingDeadline!) - Date.now()) : IDLE_CLOSE_MS;
      const woke = await condition(() => state.reassessmentPending || workflowInfo().continueAsNewSuggested, timeout);
      if (!woke) {
        if (!awaiting) return finish('close');
        // DECISIONS 6: at the deadline the review is completed with the missing-document findings.
        state.deadlinePassed = true;
        state.reassessmentPending = true;
      } else if (!state.reassessmentPending) {
        return finish('continue');
      }
      continue;
    }

    const policy = await bookkeeping.reviewPolicy({ organizationId: input.organizationId });
    const result = await analyse(policy);
    if (typeof result === 'string') {
      // An amendment that cannot be analysed leaves the current release standing.
      if (state.releases > 0) {
        await enter('released', { detail: result });
        continue;
      }
      await enter('failed', { detail: result });
      announce('review.failed');
      return finish('close');
    }
    // More documents arrived during the analysis: follow it with another pass before releasing.
    if (state.reassessmentPending) continue;
    if (!result.primaryPresent && state.releases === 0 && !state.deadlinePassed) {
      state.awaitingDeadline ??= new Date(Date.now() + policy.awaitingDocumentsSeconds * 1000).toISOString();
      await enter('awaiting_documents', { detail: `No Closing Disclosure, Loan Estimate or Note yet; completed without them at ${state.awaitingDeadline}.` });
      continue;
    }
    await release(result.findings, result.disputed > 0 ? `${result.disputed} disputed finding(s)` : null, policy);
  }

  /** Takes an analysis slot, analyses, gives the slot back; a string says why the analysis could not complete. */
  async function analyse(policy: ReviewPolicy): Promise<AnalysisResult | string> {
    let wait = 1_000;
    while (!(await bookkeeping.acquireAnalysisSlot({ ...who, limit: policy.maxConcurrentAnalyses }))) {
      if (state.internalState !== 'waiting_for_capacity') await enter('waiting_for_capacity', { detail: `All ${policy.maxConcurrentAnalyses} analysis slots of the organization are in use.` });
      capacityFreed = false;
      await condition(() => capacityFreed, wait);
      wait = Math.min(wait * 2, MAX_SLOT_WAIT_MS);
    }
    let outcome: AnalysisResult | string;
    try {
      state.reassessmentPending = false;
      // (Adding documents may have moved the review here already.)
      const working = state.releases > 0 ? 'amending' : 'analysing';
      if (state.internalState !== working) await enter(working);
      outcome = await analysis.analyseReview.executeWithOptions({ summary: 'Read, classify and check every document' }, [{ reviewId: input.reviewId }]);
    } catch (err) {
      outcome = `The analysis could not complete: ${failureMessage(err)}`;
    } finally {
      const next = await bookkeeping.releaseAnalysisSlot(who);
      // The review waiting longest for a slot of this organization is told at once.
      if (next) await getExternalWorkflowHandle(next).signal(capacityFreedSignal).catch(() => undefined);
    }
    if (typeof outcome === 'string') return outcome;
    if (outcome.nothingReadable) return `None of the ${outcome.documents} document(s) could be read.`;
    state.lastAnalysis = {
      documents: outcome.documents,
      unreadable: outcome.unreadable,
      primaryPresent: outcome.primaryPresent,
      findings: outcome.findings.length,
      disputed: outcome.disputed,
    };
    return outcome;
  }

  /** Renders and stores the report, passes the release gate, publishes, announces. */
  async function release(findings: Finding[], disputeReason: string | null, policy: ReviewPolicy): Promise<void> {
    const releaseInput = { reviewId: input.reviewId, releaseId: uuid4(), findings, generatedAt: new Date().toISOString() };
    await enter('rendering');
    let reportKey: string | undefined;
    let retryIn = FIRST_PUBLICATION_RETRY_MS;
    while (reportKey === undefined) {
      try {
        reportKey = await rendering.renderReleaseReport.executeWithOptions({ summary: `Render and store the report of release ${releaseInput.releaseId}` }, [releaseInput]);
      } catch (err) {
        // Never released without its PDF: the review stays processing until the render is stored.
        const detail = `The report could not be rendered or stored (${failureMessage(err)}); retrying in ${retryIn / 1000} s.`;
        if (state.internalState !== 'publication_blocked') await enter('publication_blocked', { detail });
        else {
          state.detail = detail;
          showState();
        }
        await sleep(retryIn);
        retryIn = Math.min(retryIn * 2, MAX_PUBLICATION_RETRY_MS);
      }
    }
    const gate = policy.releasePolicy === 'hold' ? 'the organization holds every release for approval' : state.holdRequested ? 'an operator asked to hold it' : disputeReason;
    if (gate !== null) {
      await enter('release_gate', { detail: `Waiting for approveRelease: ${gate}.` });
      // New documents make what waits here stale: analyse them first, and come back to the gate after.
      await condition(() => state.approved || state.reassessmentPending);
      if (!state.approved) return;
      state.approved = false;
      state.holdRequested = false;
    }
    // Documents that arrived since the analysis would make this release stale the moment it is out:
    // analyse again instead, so `completed` always covers every document the integrator was told of.
    if (state.reassessmentPending) return;
    // Every earlier transition is in the read model before the release completes the review.
    await projection;
    await bookkeeping.publishReviewRelease.executeWithOptions({ summary: `Publish release ${releaseInput.releaseId}` }, [{ ...releaseInput, reportKey }]);
    state.releases += 1;
    await enter('released', { recorded: true });
    announce(state.releases === 1 ? 'review.completed' : 'review.amended');
  }
}

/** The failure an activity ended with, out of Temporal's ActivityFailure wrapper. */
function causeOf(err: unknown): unknown {
  return err instanceof ActivityFailure && err.cause ? err.cause : err;
}

function failureMessage(err: unknown): string {
  const cause = causeOf(err);
  return cause instanceof Error ? cause.message : String(cause);
}

function rejectionOf(err: unknown): { code: string; message: string } {
  const cause = causeOf(err);
  if (cause instanceof ApplicationFailure && cause.type && REJECTIONS.includes(cause.type)) {
    return { code: cause.type, message: cause.message };
  }
  return { code: 'internal_error', message: 'The review could not be recorded; retry later.' };
}
