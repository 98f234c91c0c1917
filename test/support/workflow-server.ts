// What the workflow tests share: a Temporal dev server of the test file's own (the review's search
// attributes registered), the worker bundle, and the Review a stub activity answers with.
import type { TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { binaryPath, TEMPORAL_CLI } from '../../scripts/stack/go-binaries.js';
import type { DocumentSource, Review } from '../../src/reviews/review.js';
import { REVIEW_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attribute-keys.js';
import { ensureWorkflowBundle } from '../../worker/workflow-bundle.js';
import { createReviewUpdate } from '../../workflows/messages.js';
import type { reviewWorkflow } from '../../workflows/review.js';

/**
 * Starts a dev server before the file's tests and stops it after them; the environment, once started.
 * Only problems from the workers are logged: their lifecycle lines would drown the suite's output.
 */
export function workflowServer(test: TestFn): () => TestWorkflowEnvironment {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  let env: TestWorkflowEnvironment | undefined;
  test.before(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: binaryPath(process.env, TEMPORAL_CLI) },
        searchAttributes: [...REVIEW_SEARCH_ATTRIBUTES],
      },
    });
  });
  test.after.always(async () => {
    await env?.teardown();
  });
  return () => {
    if (!env) throw new Error('the workflow server is not started yet (use it inside a test)');
    return env;
  };
}

/** The worker's workflow bundle, as a worker is given it. */
export async function workflowBundle(): Promise<{ codePath: string }> {
  return { codePath: (await ensureWorkflowBundle()).path };
}

/** The Review a stub of a recording or publishing activity answers. */
export function stubReview(reviewId: string, status: Review['status']): Review {
  return {
    review_id: reviewId,
    status,
    review_type: 'mortgage_v1',
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    document_count: 1,
    label: null,
    reference_id: null,
    report_available: status === 'completed',
    sandbox: false,
  };
}

/** Creates a review, as the API does, of no documents (the stub activities stand for them), on `taskQueue`. */
export async function createReview(
  env: TestWorkflowEnvironment,
  reviewId: string,
  taskQueue: string,
  sources: DocumentSource[] = [],
): Promise<void> {
  await env.client.workflow.executeUpdateWithStart(createReviewUpdate, {
    args: [
      {
        reviewType: 'mortgage_v1',
        label: null,
        referenceId: null,
        metadata: null,
        createdAt: new Date().toISOString(),
        acceptBy: new Date(Date.now() + 60_000).toISOString(),
        files: [],
        sources,
      },
    ],
    startWorkflowOperation: new WithStartWorkflowOperation<typeof reviewWorkflow>('reviewWorkflow', {
      workflowId: reviewId,
      taskQueue,
      args: [{ reviewId, organizationId: randomUUID(), sandbox: false }],
      workflowIdConflictPolicy: 'FAIL',
    }),
  });
}
