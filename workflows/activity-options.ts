// The review workflow's activities, grouped by how they may fail and be retried. Every one is an
// ordinary activity, its result an event in the history: a review awaits several at once from several
// coroutines (the read model's writes, the pipeline's bookkeeping, a submission's record, an update's
// answer), and events are handed to the workflow in the same order when it runs and when it is replayed,
// so which coroutine resumes first never depends on timing (local activities, resolved as the worker
// sees them finish, do not give that). Short database work is merged where one step always follows
// another, which keeps a plain review's history under 60 events (test/workflow/pipeline.test.ts).
import { ActivityCancellationType, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { analysisTaskQueue, ingestTaskQueue } from '../src/temporal/task-queues.js';
import type { ReviewActivities } from '../activities/index.js';
import { ADD_REJECTIONS, CREATE_REJECTIONS } from './messages.js';

/** Refusals of a submission: final, never retried; each is an error code of the interface. */
export const REJECTIONS: readonly string[] = [...new Set([...CREATE_REJECTIONS, ...ADD_REJECTIONS])];

// Fetching sources and unpacking a large package take a while (each under its own limits, src/ingest/); a
// refusal is final, anything else is retried. It heartbeats, so a worker that dies mid-ingest is noticed
// in seconds and the ingest runs again on another. On the ingest queue (src/temporal/task-queues.ts).
export const ingest = () =>
  proxyActivities<ReviewActivities>({
    taskQueue: ingestTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [...REJECTIONS] },
  });

// What an integrator's request waits for: bounded, so the request gets an answer, not a hang.
export const requestWriter = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '250 milliseconds',
    maximumInterval: '10 seconds',
    nonRetryableErrorTypes: [...CREATE_REJECTIONS],
  },
});

// The pipeline's own bookkeeping: retried until the database answers again; nothing is skipped. A
// deletion waits for a write under way, so that none lands after the purge.
export const bookkeeper = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '250 milliseconds', maximumInterval: '30 seconds' },
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

// The analysis heartbeats while it works, so a worker that dies mid-analysis is noticed in seconds and
// the analysis runs again elsewhere. It runs on the analysis queue (src/temporal/task-queues.ts).
export const analysis = () =>
  proxyActivities<ReviewActivities>({
    taskQueue: analysisTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '60 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
    // A deletion waits for it to stop: nothing of the review is written after its purge.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });

// A render that cannot be produced or stored is retried a few times here, then by the workflow's
// publication_blocked loop. Rendering is CPU work like an analysis, and runs beside them.
export const rendering = () =>
  proxyActivities<ReviewActivities>({
    taskQueue: analysisTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
    // A deletion waits for a render under way: its PDF is stored before the purge, and goes with it.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });

// Webhooks (interface, "Events"): the activity makes the 3 attempts, 0.5 s then 1 s apart, 10 s each,
// itself (src/webhooks/delivery.ts says why). Temporal retries it only when a worker dies mid-delivery;
// the heartbeat carries how many attempts were made.
export const webhooks = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '45 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

// A deleted review's histories (history-deletion.ts): tried again while the review's last run has not
// ended or Temporal does not answer, for a day at most (the namespace's retention removes them after).
export const historyDeletion = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '1 second', maximumInterval: '5 minutes' },
});

// The retention's sweep. A deletion waits for the review's run to end and its histories to be asked
// deleted (a minute at most); one that keeps failing is left to the next sweep, which finds it again.
export const retention = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 3 },
});
