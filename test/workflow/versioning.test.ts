// The procedure for an incompatible change to the review workflow (docs/development.md, "The next
// incompatible change"), shown on a dev server of its own: a review started on today's code, waiting at
// the release gate, is carried on by a worker of the next version (test/workflow/versioning/next.ts, a
// new command behind a patch asked for first thing in the run) and completes as it began, with no
// nondeterminism; a review started on the next version takes the new path.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ReviewWorkers } from '../../worker/review-workers.js';
import { approveUpdate } from '../../workflows/messages.js';
import { queryState } from '../support/history-outline.js';
import { createReview, workflowBundle, workflowServer } from '../support/workflow-server.js';
import { stubs } from '../support/workflow-stubs.js';

const { temporal } = proto;
const EventType = temporal.api.enums.v1.EventType;
const env = workflowServer(test);

const quiet = { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const nextVersion = async () => ({
  code: (
    await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('./versioning/next.ts', import.meta.url)),
      logger: quiet,
    })
  ).code,
});

async function until(reviewId: string, p: (s: Awaited<ReturnType<typeof queryState>>) => boolean): Promise<void> {
  const handle = env().client.workflow.getHandle(reviewId);
  for (const deadline = Date.now() + 30_000; ; ) {
    if (p(await queryState(handle))) return;
    if (Date.now() > deadline) throw new Error(`review ${reviewId} never reached the state looked for`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  'a review started on the old code finishes on the new one along its old path; a new review ' + 'takes the new path',
  async (t) => {
    const taskQueue = `versioning-${randomUUID()}`;
    const old = randomUUID();
    const { activities, calls } = stubs(old, { policy: { releasePolicy: 'hold' } });

    // Today's code: the review waits at the release gate for an operator.
    const today = await ReviewWorkers.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
      analyses: 1,
    });
    await today.runUntil(async () => {
      await createReview(env(), old, taskQueue);
      await until(old, (s) => s.internalState === 'release_gate');
    });

    // The next version takes over the task queue; the operator approves; the run replays its history on the
    // new code (no marker there: the old path) and completes.
    const next = await ReviewWorkers.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await nextVersion(),
      activities,
      analyses: 1,
    });
    const fresh = randomUUID();
    await next.runUntil(async () => {
      await env().client.workflow.getHandle(old).executeUpdate(approveUpdate);
      await until(old, (s) => s.internalState === 'released' && s.releases === 1);
      await env().client.workflow.getHandle(old).result();
      await createReview(env(), fresh, taskQueue);
      await until(fresh, (s) => s.internalState === 'release_gate');
      await env().client.workflow.getHandle(fresh).executeUpdate(approveUpdate);
      await until(fresh, (s) => s.internalState === 'released');
      await env().client.workflow.getHandle(fresh).result();
    });
    t.is(calls.published.length, 2, 'each review released once');

    const events = async (id: string) => (await env().client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const oldEvents = await events(old);
    t.deepEqual(
      oldEvents
        .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
        .map((e) => e.workflowTaskFailedEventAttributes?.failure?.message),
      [],
      'no nondeterminism',
    );
    t.false(
      oldEvents.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED),
      'the old run keeps its old path',
    );
    const freshEvents = await events(fresh);
    t.true(
      freshEvents.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED),
      'a new run takes the new path',
    );
    t.true(
      freshEvents.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch'),
      'and records the patch',
    );
    t.is((await env().client.workflow.getHandle(fresh).describe()).memo?.workflowVersion, 'example-change');
  },
);
