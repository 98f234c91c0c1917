// Every history the review workflow makes replays, however the timing of its work falls: many reviews on
// a dev server of their own, with stub activities that take varied times, documents added before, during
// and after each analysis and after a run completed, and every run's history replayed at the end. A
// path through the workflow whose commands depend on when things happened, not only on what happened,
// fails here as a worker restart (or a query of a closed review) would fail in production.
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowNotFoundError, type WorkflowExecutionInfo } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { ReviewWorkers } from '../../worker/review-workers.js';
import { workflowSpanSinks } from '../../src/telemetry/workflow-spans.js';
import type { ReviewActivities } from '../../activities/index.js';
import type { Disposition } from '../../src/reviews/add-documents.js';
import type { AnalysisSummary, ReviewPolicy } from '../../src/reviews/pipeline.js';
import { historyOutline } from '../support/history-outline.js';
import { addDocumentsUpdate, approveUpdate } from '../../workflows/messages.js';
import type { reviewWorkflow } from '../../workflows/review.js';
import { createReview, stubReview, workflowBundle, workflowServer } from '../support/workflow-server.js';

const env = workflowServer(test);

/** A seeded generator (mulberry32): the same seed makes the same timings, so a failure can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Variation {
  /** Share of reviews whose organization holds releases at the gate for an operator's approval. */
  held: number;
  /** Share of added submissions that carry a filled working document. */
  workingDocuments: number;
}

/** A signed source URL as a create may carry (the stub ingest fetches nothing). */
const SOURCE = { filename: 'cd.pdf', content_type: 'application/pdf', url: 'https://lender.example/cd.pdf' };

const PLAIN: Variation = { held: 0, workingDocuments: 0 };

/** What the varied paths did, so that a test of them shows they were taken. */
interface Taken {
  workingDocuments: number;
  approvals: number;
}

/** Activities that answer what a review needs, each after a varied wait (local ones shorter). */
function stubs(rand: () => number, variation: Variation, taken: Taken) {
  const local = () => sleep(rand() < 0.5 ? 0 : rand() * 40);
  const remote = () => sleep(rand() * 120);
  const policy = (): ReviewPolicy => ({
    maxConcurrentAnalyses: 8,
    releasePolicy: rand() < variation.held ? 'hold' : 'auto',
    awaitingDocumentsSeconds: 1,
  });
  return {
    async ingestSubmission() {
      await remote();
      return { submissionId: randomUUID() };
    },
    async createReview(input: { reviewId: string }) {
      await remote();
      return { review: stubReview(input.reviewId, 'processing'), pass: { policy: policy(), slot: true } };
    },
    async recordAddedDocuments(input: { reviewId: string }) {
      await local();
      const workingDocuments =
        rand() < variation.workingDocuments
          ? [{ objectKey: `working/${input.reviewId}.pdf`, releaseId: randomUUID() }]
          : [];
      return { evidenceAdded: 1, workingDocuments, filenames: ['evidence.pdf'] };
    },
    async applyWorkingDocument(): Promise<Disposition[]> {
      taken.workingDocuments++;
      await local();
      return [
        {
          finding: 'APR-001',
          finding_id: 'APR-001',
          decision: 'cleared',
          outcome: 'applied',
          detail: 'Cleared by the integrator.',
        },
      ];
    },
    async countReleases() {
      await local();
      return 1;
    },
    async recordState() {
      await local();
    },
    async beginPass() {
      await local();
      return { policy: policy(), slot: true };
    },
    async releaseAnalysisSlot(): Promise<string[]> {
      await local();
      return [];
    },
    async analyseToDraft(input: { releaseId: string }): Promise<AnalysisSummary> {
      await remote();
      // Now and then no primary document: the review waits for one (a second) before completing.
      return {
        releaseId: input.releaseId,
        documents: 1,
        unreadable: 0,
        primaryPresent: rand() < 0.8,
        nothingReadable: false,
        findings: 2,
        disputed: 0,
        disputes: [],
      };
    },
    async renderRelease(input: { reviewId: string; releaseId: string }) {
      await remote();
      return `reports/${input.reviewId}/${input.releaseId}.pdf`;
    },
    async publishRelease(input: { reviewId: string }) {
      await local();
      return stubReview(input.reviewId, 'completed');
    },
    async publishEvent() {
      await local();
      return rand() < 0.5 ? ['endpoint-1'] : ['endpoint-1', 'endpoint-2'];
    },
    async deliverWebhook() {
      await remote();
      return 'delivered' as const;
    },
  } satisfies Partial<ReviewActivities>;
}

/** Adds documents as the API does: to the running run, or starting a run that continues a completed one. */
async function addDocuments(reviewId: string, taskQueue: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await env().client.workflow.executeUpdateWithStart(addDocumentsUpdate, {
        args: [{ files: [], sources: [], acceptBy: new Date(Date.now() + 3_600_000).toISOString() }],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof reviewWorkflow>('reviewWorkflow', {
          workflowId: reviewId,
          taskQueue,
          args: [{ reviewId, organizationId: randomUUID(), sandbox: false, resumed: { internalState: 'released' } }],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      return;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError) || attempt === 3) throw err;
    }
  }
}

/**
 * Runs 24 reviews under varied timings (documents added before, during and after analyses and after a run
 * completed; with `variation`, operators approving releases held at the gate meanwhile) and replays every
 * run's history; a history that fails is logged in outline.
 */
const REVIEWS_PER_TEST = 50;

async function replayAll(t: ExecutionContext, variation: Variation): Promise<void> {
  // 24 reviews took some 25 s on a quiet machine and over 300 s on a loaded CI machine (the suite's other
  // files beside it, workflow tasks answered in seconds); 50 take about twice that.
  t.timeout(1_200_000);
  const seed = Number(process.env.DETERMINISM_SEED ?? Date.now() % 1_000_000);
  t.log(`seed ${seed} (DETERMINISM_SEED=${seed} makes the same timings)`);
  const rand = random(seed);
  const taskQueue = `determinism-${randomUUID()}`;
  const taken: Taken = { workingDocuments: 0, approvals: 0 };
  const worker = await ReviewWorkers.create({
    connection: env().nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: stubs(rand, variation, taken),
    analyses: 8,
  });
  // 50 here and 50 in the other test: 100 reviews of varied timings, every run's history replayed.
  const reviews = Array.from({ length: REVIEWS_PER_TEST }, () => randomUUID());
  await worker.runUntil(async () => {
    await Promise.all(
      reviews.map(async (reviewId, i) => {
        await sleep(i * 30);
        // Half are created as small uploads are in their workflow (ingested and recorded by one activity),
        // half with a source URL (an ingest activity, then the record).
        await createReview(env(), reviewId, taskQueue, rand() < 0.5 ? [] : [SOURCE]);
        let done = false;
        // An operator approves whatever waits at the gate, at varied times, until the review's runs end.
        const operator = (async () => {
          while (!done && variation.held > 0) {
            await sleep(rand() * 400);
            await env()
              .client.workflow.getHandle(reviewId)
              .executeUpdate(approveUpdate)
              .then(() => taken.approvals++)
              .catch(() => undefined); // nothing waiting: refused, as it should be
          }
        })();
        // Documents arrive at times that fall before, during and after the analysis and the release.
        for (let adds = Math.floor(rand() * 3); adds > 0; adds--) {
          await sleep(rand() * 600);
          await addDocuments(reviewId, taskQueue);
        }
        // And once more after the run has completed: a run that continues the review.
        await env().client.workflow.getHandle(reviewId).result();
        await addDocuments(reviewId, taskQueue);
        await env().client.workflow.getHandle(reviewId).result();
        done = true;
        await operator;
      }),
    );
  });
  const runs: WorkflowExecutionInfo[] = [];
  for await (const run of env().client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) runs.push(run);
  const histories = await Promise.all(
    runs.map(async (run) => ({
      workflowId: `${run.workflowId} run ${run.runId}`,
      history: await env().client.workflow.getHandle(run.workflowId, run.runId).fetchHistory(),
    })),
  );
  const failed: string[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), sinks: workflowSpanSinks(undefined) },
    histories,
  )) {
    if (result.error) {
      failed.push(`${result.workflowId}: ${result.error.message}`);
      t.log(
        `${result.workflowId}:\n${historyOutline(histories.find((h) => h.workflowId === result.workflowId)!.history)}`,
      );
    }
  }
  t.log(
    `${histories.length} runs of ${reviews.length} reviews replayed; ${taken.approvals} approvals at ` +
      `the gate, ${taken.workingDocuments} working documents applied`,
  );
  t.true(histories.length >= reviews.length * 2, `${histories.length} runs`);
  if (variation.held > 0) t.true(taken.approvals > 0, 'operators approved releases held at the gate');
  if (variation.workingDocuments > 0) t.true(taken.workingDocuments > 0, 'working documents were applied');
  t.deepEqual(failed, []);
}

// One after the other: 100 reviews at once on one dev server and worker are load, not variety of timing.
test.serial(
  'histories made under varied timings, with documents added before, during and after analyses, all replay',
  (t) => replayAll(t, PLAIN),
);

test.serial(
  'so do histories with releases held at the gate and approved meanwhile, and working documents among the additions',
  (t) => replayAll(t, { held: 0.5, workingDocuments: 0.4 }),
);
