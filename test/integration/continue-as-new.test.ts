// A run that waits long (for documents, at the gate, on a hold) continues as new when Temporal suggests it,
// handing its state to the next run. Shown on a dev server of its own (TestWorkflowEnvironment with the
// temporal binary the stack built) told to suggest continue-as-new after 10 events, with a worker in
// this process over the suite's Postgres and MinIO.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ReviewWorkers } from '../../worker/review-workers.js';
import { createActivities } from '../../activities/index.js';
import { binaryPath, TEMPORAL_CLI } from '../../scripts/stack/go-binaries.js';
import type { StagedFile } from '../../src/reviews/staged-file.js';
import { uploadKey } from '../../src/storage/keys.js';
import { putStream } from '../../src/storage/minio.js';
import { addDocumentsUpdate, createReviewUpdate, getStateQuery } from '../../workflows/messages.js';
import { REVIEW_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attribute-keys.js';
import { ensureWorkflowBundle } from '../../worker/workflow-bundle.js';
import type { reviewWorkflow } from '../../workflows/review.js';
import { pdf } from '../support/fixtures.js';
import { storage } from '../support/objects.js';
import { transitions } from '../support/reviews.js';
import { closeShared, config, db, newOrganization } from '../support/stack.js';

Runtime.install({ logger: new DefaultLogger('WARN') });

let env: TestWorkflowEnvironment | undefined;
test.after.always(async () => {
  await env?.teardown();
  await closeShared();
});

/** An upload as the API would have streamed it. */
async function staged(organizationId: string, filename: string, data: Buffer): Promise<StagedFile> {
  const key = uploadKey(organizationId);
  await putStream(storage, key, Readable.from([data]), 'application/pdf');
  return { key, filename, declaredType: 'application/pdf', source: 'upload' };
}

async function waitForStatus(reviewId: string, status: string, releases: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await db()`select r.status, (select count(*)::int from releases where review_id = r.id) as releases
        from reviews r where id = ${reviewId}`;
    if (row?.status === status && row.releases === releases) return;
    if (Date.now() > deadline) throw new Error(`review ${reviewId} is ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  'a review waiting for its documents continues as new when suggested, and the next run completes ' +
    'it with the state it was handed',
  async (t) => {
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: binaryPath(process.env, TEMPORAL_CLI) },
        searchAttributes: [...REVIEW_SEARCH_ATTRIBUTES],
        extraArgs: ['--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=10'],
      },
    });
    const taskQueue = `can-${randomUUID()}`;
    const worker = await ReviewWorkers.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: (await ensureWorkflowBundle()).path },
      activities: createActivities({ config, sql: db(), storage }),
      analyses: 2,
    });
    await worker.runUntil(async () => {
      const org = await newOrganization();
      const reviewId = randomUUID();
      const client = env!.client;
      await client.workflow.executeUpdateWithStart(createReviewUpdate, {
        args: [
          {
            reviewType: 'mortgage_v1',
            label: null,
            referenceId: null,
            metadata: null,
            createdAt: new Date().toISOString(),
            acceptBy: new Date(Date.now() + 60_000).toISOString(),
            files: [await staged(org.id, 'paystub.pdf', await pdf('Earnings Statement'))],
            sources: [],
          },
        ],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof reviewWorkflow>('reviewWorkflow', {
          workflowId: reviewId,
          taskQueue,
          args: [{ reviewId, organizationId: org.id, sandbox: false }],
          workflowIdConflictPolicy: 'FAIL',
        }),
      });
      await waitForStatus(reviewId, 'awaiting_documents', 0);
      // The run the update started: the hand-over may already have happened by the time the status is seen.
      const firstRun =
        (await client.workflow.getHandle(reviewId).describe()).raw.workflowExecutionInfo?.firstRunId ?? '';

      // Past 10 events the wait for documents sees the suggestion and hands over.
      const handle = client.workflow.getHandle(reviewId);
      const deadline = Date.now() + 30_000;
      while ((await handle.describe()).runId === firstRun) {
        if (Date.now() > deadline) throw new Error('the run never continued as new');
        await new Promise((r) => setTimeout(r, 200));
      }
      const before = await client.workflow.getHandle(reviewId, firstRun).describe();
      t.is(before.status.name, 'CONTINUED_AS_NEW');
      t.true(before.historyLength > 10, `${before.historyLength} events before the hand-over`);
      const handed = await handle.query(getStateQuery);
      t.like(handed, {
        reviewId,
        created: true,
        internalState: 'awaiting_documents',
        releases: 0,
        reassessmentPending: false,
      });
      t.truthy(handed.awaitingDeadline);

      // The new run takes the Closing Disclosure and completes the review, then completes itself.
      const added = await handle.executeUpdate(addDocumentsUpdate, {
        args: [
          {
            files: [await staged(org.id, 'cd.pdf', await pdf('Closing Disclosure'))],
            sources: [],
            acceptBy: new Date(Date.now() + 60_000).toISOString(),
          },
        ],
      });
      t.like(added, { review_id: reviewId, status: 'processing', documents_ingested: 1 });
      await waitForStatus(reviewId, 'completed', 1);
      t.like(await handle.result(), {
        releases: 1,
        internalState: 'released',
        awaitingDeadline: handed.awaitingDeadline,
      });
      t.deepEqual((await transitions(reviewId)).slice(-4), [
        'awaiting_documents',
        'analysing',
        'rendering',
        'released',
      ]);
    });
  },
);
