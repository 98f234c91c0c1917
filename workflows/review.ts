// The review workflow: the single owner of one review's state (workflow id = review id). It decides;
// activities do all I/O. Create and add-documents arrive as updates (submissions.ts); then the pipeline
// runs: an analysis slot of the organization, the analysis (pipeline.ts), waiting for primary documents,
// the release (release.ts: render, release gate, publication, webhooks). New evidence later re-assesses
// and amends. Every transition goes to the read model, the search attributes and the UI (progress.ts).
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  addDocumentsUpdate,
  approveUpdate,
  capacityFreedSignal,
  createReviewUpdate,
  getStateQuery,
  holdUpdate,
  type ReviewWorkflowInput,
  type ReviewWorkflowState,
} from './messages.js';
import { ReleaseGate } from './release-gate.js';
import { bookkeeper } from './activity-options.js';
import { Pipeline } from './pipeline.js';
import { ReviewProgress } from './progress.js';
import { release } from './release.js';
import { Submissions } from './submissions.js';

export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<ReviewWorkflowState> {
  const progress = new ReviewProgress(input);
  const { state } = progress;
  const submissions = new Submissions(input, progress);
  const pipeline = new Pipeline(progress);

  const gate = new ReleaseGate(progress);

  // Descriptions are what the Temporal UI and `temporal workflow metadata` show beside each handler.
  setHandler(getStateQuery, () => state, {
    description: 'The review as the workflow holds it: internal state, releases, the last analysis, the disputed findings with comments and senders, what waits at the release gate.',
  });
  setHandler(approveUpdate, () => gate.approve(), {
    validator: () => gate.validateApprove(),
    description: 'Operator: publish the release waiting at the release gate (see getState.gate and .disputes), or lift a hold asked for earlier. Refused when neither applies.',
  });
  setHandler(holdUpdate, () => gate.hold(), {
    validator: () => gate.validateHold(),
    description: "Operator: hold the review's next release at the release gate until approved. Refused for a review not created, failed, already held, or with a release waiting.",
  });
  setHandler(capacityFreedSignal, () => pipeline.onCapacityFreed(), {
    description: "Sent by another review of the organization that gave back its analysis slot: ask for one again now.",
  });
  setHandler(createReviewUpdate, (request) => submissions.create(request), {
    validator: (_request) => submissions.validateCreate(),
    description: 'The API: record the review and ingest its documents (once per workflow); answers the Review or an API error code.',
  });
  setHandler(addDocumentsUpdate, (request) => submissions.add(request), {
    validator: (_request) => submissions.validateAdd(),
    description: 'The API: ingest more documents or a filled working document; answers the Add-documents result or an API error code.',
  });

  await condition(() => state.created || state.rejection !== null);
  if (!state.created) {
    // A rejected create leaves no review: let the update reply, then end.
    await condition(allHandlersFinished);
    return state;
  }
  progress.show();

  /** Ends this run once its handlers and webhooks are done: closed, or continued as a new run. */
  const finish = async (next: 'close' | 'continue'): Promise<ReviewWorkflowState> => {
    await condition(allHandlersFinished);
    await progress.settled();
    if (next === 'close') return state;
    return continueAsNew<typeof reviewWorkflow>({ reviewId: input.reviewId, organizationId: input.organizationId, sandbox: input.sandbox, carried: state });
  };

  const suggested = () => workflowInfo().continueAsNewSuggested;
  /**
   * A released review rests: its run is done once nothing is in flight (its handlers, read-model writes
   * and webhooks done), so the UI's Running list is the work in flight; documents added later start a
   * run that continues the review (update-with-start, api/review-workflow.ts). It rests no longer when
   * documents arrive (they are analysed) or Temporal asks for a new run. A hold an operator asked for is a
   * standing instruction the run keeps (a sandbox review releases nothing more, so it keeps none).
   */
  const rest = async (): Promise<'reassess' | 'done' | 'continue'> => {
    const done = () => (state.sandbox || !state.holdRequested) && allHandlersFinished() && progress.settledNow;
    await condition(() => state.reassessmentPending || done() || suggested());
    if (state.reassessmentPending) return 'reassess';
    return done() ? 'done' : 'continue';
  };

  const firstRun = !input.resumed && !input.carried;
  if (input.resumed) {
    // A review still `ingesting` has no release: the API recorded it and this is its first run.
    if (input.resumed.internalState !== 'ingesting') state.releases = await bookkeeper.countReleases({ reviewId: input.reviewId });
    // A run that stopped mid-pipeline (terminated, or its history reset) starts the pipeline again.
    // (An awaiting review analyses again too: that sets its deadline afresh.)
    if (state.internalState !== 'released' && state.internalState !== 'failed') state.reassessmentPending = true;
  }

  if (state.sandbox) {
    if (firstRun) {
      // Announced once the canned release is committed (the create handler is still publishing it).
      await condition(() => state.releases > 0 || state.rejection !== null);
      if (state.releases > 0) progress.announce('review.completed', undefined, submissions.sandboxReleasedAt);
    }
    // Documents added to a sandbox review are kept; nothing else happens.
    return finish((await rest()) === 'continue' ? 'continue' : 'close');
  }

  for (;;) {
    if (!state.reassessmentPending) {
      if (state.internalState !== 'awaiting_documents' || state.awaitingDeadline === null) {
        const next = await rest();
        if (next === 'reassess') continue;
        return finish(next === 'done' ? 'close' : 'continue');
      }
      const woke = await condition(() => state.reassessmentPending || suggested(), Math.max(0, Date.parse(state.awaitingDeadline) - Date.now()));
      if (!woke) {
        // decisions.md, "Awaiting documents": at the deadline the review is completed with the missing-document findings.
        state.deadlinePassed = true;
        state.reassessmentPending = true;
      } else if (!state.reassessmentPending) {
        return finish('continue');
      }
      continue;
    }

    const analysed = await pipeline.analyse(submissions.takeFirstPass());
    if (typeof analysed === 'string') {
      // An amendment that cannot be analysed leaves the current release standing.
      if (state.releases > 0) {
        await progress.enter('released', { detail: analysed });
        continue;
      }
      await progress.enter('failed', { detail: analysed });
      progress.announce('review.failed', null);
      return finish('close');
    }
    // More documents arrived during the analysis: follow it with another pass before releasing.
    if (state.reassessmentPending) continue;
    if (!analysed.primaryPresent && state.releases === 0 && !state.deadlinePassed) {
      state.awaitingDeadline ??= new Date(Date.now() + analysed.policy.awaitingDocumentsSeconds * 1000).toISOString();
      await progress.enter('awaiting_documents', { detail: `No Closing Disclosure, Loan Estimate or Note yet; completed without them at ${state.awaitingDeadline}.` });
      continue;
    }
    await release(progress, analysed.draft, analysed.disputed > 0 ? `${analysed.disputed} disputed finding(s)` : null, analysed.policy);
  }
}
