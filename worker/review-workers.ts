// A worker process polls the task queues of the reviews (src/temporal/task-queues.ts): the review queue,
// for workflow tasks and the short activities an integrator's create waits for, with the ingest queue
// beside it (`ingests` slots), and the analysis queue, for analyses and renders, with `analyses` slots.
// One Temporal worker per queue, on one connection, run and stopped together.
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../src/telemetry/tracing.js';
import { workflowSpanSinks } from '../src/telemetry/workflow-spans.js';
import type { WorkerQueue } from '../src/config.js';
import { analysisTaskQueue, ingestTaskQueue } from '../src/temporal/task-queues.js';

export interface ReviewWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  /** Which queues to poll: both unless said. */
  queues?: readonly WorkerQueue[];
  /** Needed when the review queue is polled. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The review activities (tests pass stubs of them). */
  activities: NonNullable<WorkerOptions['activities']>;
  /** Analyses and renders at once. */
  analyses: number;
  /** Submissions ingested at once (the ingest queue, polled with the review queue); 16 when unsaid. */
  ingests?: number;
  /** Workflow tasks at once on the review queue; the SDK's default when unsaid. */
  workflowTasks?: number;
  /** Threads running workflow code (src/config.ts WORKER_WORKFLOW_THREADS); the SDK's default when unsaid. */
  workflowThreads?: number;
  /** How payloads are sealed and opened (src/temporal/connection.ts); plain when unsaid (workflow tests). */
  dataConverter?: WorkerOptions['dataConverter'];
  /** Where workflow and activity spans go (src/telemetry/tracing.ts); none made when unsaid. */
  tracing?: Tracing | undefined;
}

export class ReviewWorkers {
  private constructor(private readonly workers: readonly Worker[]) {}

  static async create(o: ReviewWorkerOptions): Promise<ReviewWorkers> {
    const queues = o.queues ?? ['reviews', 'analysis'];
    // Activities are spans of their workflow's trace where the process traces; the module only then.
    const otel = o.tracing ? await import('@temporalio/interceptors-opentelemetry/lib/worker/index.js') : undefined;
    const common = {
      connection: o.connection,
      ...(o.namespace ? { namespace: o.namespace } : {}),
      ...(o.dataConverter ? { dataConverter: o.dataConverter } : {}),
      activities: o.activities,
      // The workflows' spans leave the sandbox through this sink: every worker has it, tracing or not,
      // since the workflow bundle's tracing interceptor calls it (src/telemetry/tracing.ts).
      sinks: workflowSpanSinks(o.tracing),
      ...(otel
        ? {
            interceptors: {
              activity: [
                (ctx: Parameters<NonNullable<NonNullable<WorkerOptions['interceptors']>['activity']>[number]>[0]) => ({
                  inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
                  outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
                }),
              ],
            },
          }
        : {}),
    };
    // Pollers scale with the backlog (the SDK's autoscaling behaviour) rather than a fixed ten: a burst of
    // creates puts hundreds of first workflow tasks on the queue at once, which a fixed few pollers
    // (two of them for a queue's non-sticky tasks) hand out one round trip at a time.
    const polling = {
      workflowTaskPollerBehavior: { type: 'autoscaling' },
      activityTaskPollerBehavior: { type: 'autoscaling' },
    } as const;
    const workers: Worker[] = [];
    if (queues.includes('reviews')) {
      if (!o.workflowBundle) throw new Error('a worker that polls the review queue needs the workflow bundle');
      // A burst of creates and additions brings hundreds of workflow tasks at once, and reviews waiting for
      // an analysis slot ask again and again: a create the workflow answers must still find a slot free.
      const slots =
        o.workflowTasks === undefined
          ? {}
          : {
              maxConcurrentWorkflowTaskExecutions: o.workflowTasks,
              maxCachedWorkflows: Math.max(o.workflowTasks, 1_000),
            };
      const threads = o.workflowThreads === undefined ? {} : { workflowThreadPoolSize: o.workflowThreads };
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: o.taskQueue,
          workflowBundle: o.workflowBundle,
          ...slots,
          ...threads,
          ...polling,
        }),
        await Worker.create({
          ...common,
          taskQueue: ingestTaskQueue(o.taskQueue),
          maxConcurrentActivityTaskExecutions: o.ingests ?? 16,
          activityTaskPollerBehavior: polling.activityTaskPollerBehavior,
        }),
      );
    }
    if (queues.includes('analysis')) {
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: analysisTaskQueue(o.taskQueue),
          maxConcurrentActivityTaskExecutions: o.analyses,
          // A cancellation reaches an activity in the answer to its heartbeat, and the SDK sends heartbeats
          // at most every 0.8 × the heartbeat timeout (16 s for an analysis) unless told otherwise: an
          // analysis of a review being deleted would read on for that long.
          maxHeartbeatThrottleInterval: '2 seconds',
        }),
      );
    }
    return new ReviewWorkers(workers);
  }

  /** Polls every queue until shutdown; one that fails stops the others. */
  async run(): Promise<void> {
    const runs = this.workers.map((w) =>
      w.run().catch((err: unknown) => {
        this.shutdown();
        throw err;
      }),
    );
    await Promise.all(runs);
  }

  /** Polls every queue while `work` runs, then stops them (as Worker.runUntil does for one). */
  async runUntil<T>(work: () => Promise<T>): Promise<T> {
    return this.workers.reduce<() => Promise<T>>((inner, w) => () => w.runUntil(inner), work)();
  }

  /** Every queue's worker is polling. */
  polling(): boolean {
    return this.workers.every((w) => w.getState() === 'RUNNING');
  }

  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }
}
