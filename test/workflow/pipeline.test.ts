// The review workflow's decisions, on a Temporal dev server of its own with stub activities: what it
// does at the release gate, at the awaiting-documents deadline and when a report cannot be stored, and
// how long the history of a plain review grows. No Postgres, MinIO or QC engine: the activities answer
// what each test needs and record what the workflow asked of them.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ReviewWorkers } from '../../worker/review-workers.js';
import { approveUpdate, type ReviewWorkflowState } from '../../workflows/messages.js';
import { queryState } from '../support/history-outline.js';
import { createReview, workflowBundle, workflowServer } from '../support/workflow-server.js';
import { stubs, type Scenario } from '../support/workflow-stubs.js';

const env = workflowServer(test);

/** Creates a review on a worker with the scenario's stubs and runs `check` while that worker runs. */
async function withReview(
  scenario: Scenario,
  check: (r: {
    reviewId: string;
    calls: ReturnType<typeof stubs>['calls'];
    until: (p: (s: ReviewWorkflowState) => boolean) => Promise<ReviewWorkflowState>;
  }) => Promise<void>,
) {
  const reviewId = randomUUID();
  const taskQueue = `pipeline-${reviewId}`;
  const { activities, calls } = stubs(reviewId, scenario);
  const worker = await ReviewWorkers.create({
    connection: env().nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
    analyses: 2,
  });
  await worker.runUntil(async () => {
    await createReview(env(), reviewId, taskQueue);
    const handle = env().client.workflow.getHandle(reviewId);
    const until = async (p: (s: ReviewWorkflowState) => boolean) => {
      for (const deadline = Date.now() + 30_000; ; ) {
        const state = await queryState(handle);
        if (p(state)) return state;
        if (Date.now() > deadline)
          throw new Error(`review never reached the state looked for; it is ${JSON.stringify(state)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await check({ reviewId, calls, until });
  });
}

test(
  'an organization that holds releases: the release waits at release_gate, published only ' + 'after approve',
  async (t) => {
    await withReview({ policy: { releasePolicy: 'hold' } }, async ({ reviewId, calls, until }) => {
      await until((s) => s.internalState === 'release_gate');
      await new Promise((r) => setTimeout(r, 1_000));
      t.deepEqual(calls.published, [], 'nothing is published while it waits');
      await env().client.workflow.getHandle(reviewId).executeUpdate(approveUpdate);
      await until((s) => s.internalState === 'released' && s.releases === 1);
      t.is(calls.published.length, 1);
      t.deepEqual(calls.states, ['analysing', 'rendering', 'release_gate']);
    });
  },
);

test(
  'no primary document: awaiting_documents until the deadline, then analysed again and completed ' + 'without it',
  async (t) => {
    const awaitingSeconds = 2;
    await withReview(
      { policy: { awaitingDocumentsSeconds: awaitingSeconds }, analyses: [{ primaryPresent: false }] },
      async ({ calls, until }) => {
        const awaiting = await until((s) => s.internalState === 'awaiting_documents');
        t.not(awaiting.awaitingDeadline, null);
        const released = await until((s) => s.internalState === 'released');
        t.true(released.deadlinePassed);
        t.is(calls.analyses, 2, 'the deadline runs the analysis again');
        t.is(calls.published.length, 1);
        t.true(
          calls.published[0]!.at >= Date.parse(awaiting.awaitingDeadline!),
          'released at the deadline, not before',
        );
        t.deepEqual(calls.states, ['analysing', 'awaiting_documents', 'analysing', 'rendering']);
      },
    );
  },
);

test(
  'a report that cannot be stored: publication_blocked (processing) and retried, released only ' +
    'once its PDF is stored',
  async (t) => {
    await withReview({ failedRenders: 1 }, async ({ calls, until }) => {
      const blocked = await until((s) => s.internalState === 'publication_blocked');
      t.regex(blocked.detail ?? '', /MinIO is not answering.*retrying in 5 s/);
      t.deepEqual(calls.published, []);
      await until((s) => s.internalState === 'released');
      t.is(calls.renders, 2);
      t.is(calls.published.length, 1);
      t.deepEqual(calls.states, ['analysing', 'rendering', 'publication_blocked']);
    });
  },
);

test('the history of a plain review, created, analysed, released and announced, holds at most 60 events', async (t) => {
  await withReview({}, async ({ reviewId, calls, until }) => {
    await until((s) => s.internalState === 'released');
    for (const deadline = Date.now() + 10_000; calls.events.length === 0 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 100));
    t.deepEqual(calls.events, ['review.completed']);
    // The workflow task after the delivery completes is the last of the release.
    await new Promise((r) => setTimeout(r, 500));
    const history = await env().client.workflow.getHandle(reviewId).fetchHistory();
    const events = history.events?.length ?? 0;
    t.log(`${events} events in the history of a plain review`);
    t.true(events > 0 && events <= 60, `${events} events`);
  });
});

test(
  'giving back its analysis slot, a review tells every review granted one at once; one that is ' +
    'gone does not stop it',
  async (t) => {
    // Neither workflow exists (as a review terminated while it waited): the signals fail and are let go.
    const granted = [randomUUID(), randomUUID()];
    await withReview({ granted }, async ({ reviewId, until }) => {
      await until((s) => s.internalState === 'released');
      const history = await env().client.workflow.getHandle(reviewId).fetchHistory();
      const told = (history.events ?? []).flatMap(
        (e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.workflowExecution?.workflowId ?? [],
      );
      t.deepEqual([...told].sort(), [...granted].sort());
    });
  },
);
