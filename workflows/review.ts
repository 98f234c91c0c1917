// The review workflow: one review's run (workflow id = review id). It decides; activities do all I/O.
// Every create is an update-with-start of its first run, and documents added later are updates too
// (submissions.ts), starting a run that continues the review when its last one has closed; then the
// pipeline runs: an analysis slot of the organization, the analysis (pipeline.ts), waiting for primary
// documents, the release (release.ts: render, release gate, publication, webhooks). New evidence later
// re-assesses and amends. The review's state changes only by its transitions (review-state.ts); each goes
// to the read model, the search attributes and the UI (progress.ts).
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  addDocumentsUpdate,
  approveUpdate,
  capacityFreedSignal,
  createReviewUpdate,
  deleteReviewUpdate,
  getStateQuery,
  holdUpdate,
  type ReviewWorkflowInput,
  type ReviewWorkflowState,
} from './messages.js';
import { ReleaseGate } from './release-gate.js';
import { bookkeeper } from './activity-options.js';
import { Deletion } from './deletion.js';
import { Pipeline } from './pipeline.js';
import { ReviewProgress } from './progress.js';
import { release } from './release.js';
import { Submissions } from './submissions.js';

export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<ReviewWorkflowState> {
  const progress = new ReviewProgress(input);
  const submissions = new Submissions(input, progress);
  const pipeline = new Pipeline(progress);
  const deletion = new Deletion(progress);
  registerHandlers(progress, submissions, pipeline, new ReleaseGate(progress), deletion);
  const ended = await deletion.run(() => runReview(input, progress, submissions, pipeline));
  if (ended !== undefined) return ended;
  // Deleted: the update answers once its handler (and any other) is done.
  await condition(allHandlersFinished);
  return progress.state;
}

/** The review's own work: its create, then the pipeline until the run ends (closed, or continued). */
async function runReview(
  input: ReviewWorkflowInput,
  progress: ReviewProgress,
  submissions: Submissions,
  pipeline: Pipeline,
): Promise<ReviewWorkflowState> {
  const { state } = progress;
  await condition(() => state.created || state.rejection !== null);
  if (!state.created) {
    // A rejected create leaves no review: let the update reply, then end.
    await condition(allHandlersFinished);
    return state;
  }
  progress.show();
  const run = new ReviewRun(input, progress, submissions, pipeline);
  if (input.resumed) {
    // A run that stopped mid-pipeline (terminated, or its history reset) starts the pipeline again. (An
    // awaiting review analyses again too: that sets its deadline afresh.)
    progress.review.resumed(await bookkeeper.countReleases({ reviewId: input.reviewId }));
  }
  if (state.sandbox) return run.sandbox(!input.resumed && !input.carried);
  for (;;) {
    const next = state.reassessmentPending ? await run.analyseAndRelease() : await run.waitForDocuments();
    if (next !== 'again') return run.finish(next);
  }
}

/**
 * The handlers of the review's messages. Descriptions are what the Temporal UI and `temporal workflow
 * metadata` show.
 */
function registerHandlers(
  progress: ReviewProgress,
  submissions: Submissions,
  pipeline: Pipeline,
  gate: ReleaseGate,
  deletion: Deletion,
): void {
  setHandler(getStateQuery, () => progress.state, {
    description:
      'The review as the workflow holds it: internal state, releases, the last analysis, the ' +
      'disputed findings with comments and senders, what waits at the release gate.',
  });
  setHandler(approveUpdate, () => gate.approve(), {
    validator: () => {
      deletion.refuseWhileDeleting();
      gate.validateApprove();
    },
    description:
      'Operator: publish the release waiting at the release gate (see getState.gate and .disputes), ' +
      'or lift a hold asked for earlier. Refused when neither applies.',
  });
  setHandler(holdUpdate, () => gate.hold(), {
    validator: () => {
      deletion.refuseWhileDeleting();
      gate.validateHold();
    },
    description:
      "Operator: hold the review's next release at the release gate until approved. Refused for a " +
      'review not created, failed, already held, or with a release waiting.',
  });
  setHandler(capacityFreedSignal, () => pipeline.onCapacityFreed(), {
    description: 'Sent by another review of the organization that gave back its analysis slot: ask for one again now.',
  });
  setHandler(createReviewUpdate, (request) => submissions.create(request), {
    validator: (_request) => submissions.validateCreate(),
    description:
      'The API: record the review and ingest its documents (once per workflow); answers the Review ' +
      'or an API error code.',
  });
  setHandler(deleteReviewUpdate, (request) => deletion.handle(request), {
    validator: (request) => deletion.validate(request),
    description:
      'The API: delete the review: stop its work, remove its documents, reports and rows (an audit row ' +
      'stays), end the run.',
  });
  setHandler(addDocumentsUpdate, (request) => submissions.add(request), {
    validator: (_request) => {
      deletion.refuseWhileDeleting();
      submissions.validateAdd();
    },
    description:
      'The API: ingest more documents or a filled working document; answers the Add-documents result ' +
      'or an API error code.',
  });
}

/** How a run goes on once its review exists: analyse and release, wait for documents, rest, end. */
class ReviewRun {
  constructor(
    private readonly input: ReviewWorkflowInput,
    private readonly progress: ReviewProgress,
    private readonly submissions: Submissions,
    private readonly pipeline: Pipeline,
  ) {}

  private get state() {
    return this.progress.state;
  }

  /**
   * A sandbox review: its canned release announced (on its first run); documents added later are kept,
   * nothing else.
   */
  async sandbox(firstRun: boolean): Promise<ReviewWorkflowState> {
    const { state, progress } = this;
    if (firstRun) {
      // Announced once the canned release is committed (the create handler is still publishing it).
      await condition(() => state.releases > 0 || state.rejection !== null);
      if (state.releases > 0) progress.announce('review.completed', undefined, this.submissions.sandboxReleasedAt);
    }
    return this.finish((await this.rest()) === 'continue' ? 'continue' : 'close');
  }

  /**
   * One pass of the pipeline and what follows it: a release, the wait for primary documents, or the
   * review failed ('close'). 'again' when the loop goes on.
   */
  async analyseAndRelease(): Promise<'again' | 'close'> {
    const { state, progress } = this;
    const analysed = await this.pipeline.analyse(this.submissions.takeFirstPass());
    if (typeof analysed === 'string') {
      // An amendment that cannot be analysed leaves the current release standing.
      if (state.releases > 0) {
        await progress.enter('released', { detail: analysed });
        return 'again';
      }
      await progress.enter('failed', { detail: analysed });
      progress.announce('review.failed', null);
      return 'close';
    }
    // More documents arrived during the analysis: follow it with another pass before releasing.
    if (state.reassessmentPending) return 'again';
    if (!analysed.primaryPresent && state.releases === 0 && !state.deadlinePassed) {
      progress.review.awaitUntil(new Date(Date.now() + analysed.policy.awaitingDocumentsSeconds * 1000).toISOString());
      await progress.enter('awaiting_documents', {
        detail: `No Closing Disclosure, Loan Estimate or Note yet; completed without them at ${state.awaitingDeadline}.`,
      });
      return 'again';
    }
    await release(
      progress,
      analysed.draft,
      analysed.disputed > 0 ? `${analysed.disputed} disputed finding(s)` : null,
      analysed.policy,
    );
    return 'again';
  }

  /** Nothing to analyse: wait for documents until the awaiting deadline, or rest once released. */
  async waitForDocuments(): Promise<'again' | 'close' | 'continue'> {
    const { state } = this;
    if (state.internalState !== 'awaiting_documents' || state.awaitingDeadline === null) {
      const next = await this.rest();
      return next === 'reassess' ? 'again' : next === 'done' ? 'close' : 'continue';
    }
    const woke = await condition(
      () => state.reassessmentPending || suggested(),
      Math.max(0, Date.parse(state.awaitingDeadline) - Date.now()),
    );
    // decisions.md, "Awaiting documents": at the deadline the review is completed with the missing-document findings.
    if (!woke) this.progress.review.deadlineReached();
    else if (!state.reassessmentPending) return 'continue';
    return 'again';
  }

  /**
   * A released review rests: its run is done once nothing is in flight (its handlers, read-model writes
   * and webhooks done), so the UI's Running list is the work in flight; documents added later start a
   * run that continues the review (update-with-start, api/review-workflow.ts). It rests no longer when
   * documents arrive (they are analysed) or Temporal asks for a new run. A hold an operator asked for is a
   * standing instruction the run keeps (a sandbox review releases nothing more, so it keeps none).
   */
  private async rest(): Promise<'reassess' | 'done' | 'continue'> {
    const { state, progress } = this;
    const done = () => (state.sandbox || !state.holdRequested) && allHandlersFinished() && progress.settledNow;
    await condition(() => state.reassessmentPending || done() || suggested());
    if (state.reassessmentPending) return 'reassess';
    return done() ? 'done' : 'continue';
  }

  /** Ends this run once its handlers and webhooks are done: closed, or continued as a new run. */
  async finish(next: 'close' | 'continue'): Promise<ReviewWorkflowState> {
    await condition(allHandlersFinished);
    await this.progress.settled();
    const { reviewId, organizationId, sandbox } = this.input;
    if (next === 'close') return this.state;
    return continueAsNew<typeof reviewWorkflow>({ reviewId, organizationId, sandbox, carried: this.state });
  }
}

const suggested = () => workflowInfo().continueAsNewSuggested;
