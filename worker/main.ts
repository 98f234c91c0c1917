// The worker process: polls the task queues WORKER_QUEUES names (src/temporal/task-queues.ts). For the
// review queue it loads the pre-built workflow bundle and registers the search attributes; for the
// analysis queue it warms its readers (pdf.js threads, OCR workers), and one that polls only that queue
// runs at a lower scheduling priority than the rest of the machine. It shuts down gracefully on
// SIGTERM/SIGINT (Temporal's runtime handles them). Launched by the local stack beside its servers, it
// polls once the database and the bucket are ready (WORKER_POLL_AFTER_STDIN_CLOSES); Temporal it waits
// for itself.
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { lazyActivities } from '../activities/lazy.js';
import { loadServiceConfigOrExit } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import type { ReviewActivities } from '../activities/index.js';
import { watchEventLoopStalls } from '../src/runtime/event-loop-stalls.js';
import { ensureSearchAttributes, MissingSearchAttributesError } from '../src/temporal/search-attributes.js';
import {
  connectTemporal,
  describeTemporalConnection,
  temporalConnectionOptions,
  temporalDataConverter,
} from '../src/temporal/connection.js';
import { ensureRetentionSchedule, retentionScheduleId } from '../src/temporal/retention-schedule.js';
import { ensureWorkflowBundle } from './workflow-bundle.js';
import { ReviewWorkers } from './review-workers.js';
import { analysisTaskQueue, ingestTaskQueue } from '../src/temporal/task-queues.js';
import { lowerThisProcessPriority } from '../src/runtime/background-priority.js';
import { createLogger, exitAfterLogs, setProcessLogger } from '../src/telemetry/pino-logger.js';
import { DEFAULT_OPS_PORT, json, startOpsServer } from '../src/telemetry/ops-server.js';
import { loopbackPort, sdkMetricsText } from '../src/telemetry/sdk-metrics.js';
import { coreLevel, temporalLogger } from '../src/telemetry/temporal-log.js';
import { startTracing } from '../src/telemetry/tracing.js';
import { watchPolling, workerRegistry } from '../src/telemetry/worker-metrics.js';

const config = loadServiceConfigOrExit();
const log = createLogger({ service: 'worker', level: config.logLevel, format: config.telemetry.logFormat });
setProcessLogger(log);
const tracing = await startTracing('worker', config, log);
const metrics = config.telemetry.metrics;
// Before any connection: the SDK's logs (its native core's too) become the worker's records, and its
// metrics are served by its core on a loopback port, read at each scrape of the operations port.
const sdkMetricsPort = metrics ? await loopbackPort() : undefined;
Runtime.install({
  logger: temporalLogger(log),
  telemetryOptions: {
    logging: { forward: {}, filter: { core: coreLevel(config.logLevel), other: 'WARN' } },
    ...(sdkMetricsPort === undefined
      ? {}
      : { metrics: { prometheus: { bindAddress: `127.0.0.1:${sdkMetricsPort}`, useSecondsForDurations: true } } }),
  },
});
// Workflow tasks wait while an activity holds the loop: a create's answer waits for its first one.
watchEventLoopStalls(log);

/** What /readyz asks: the worker polls every queue it serves, and its readers are warm where it analyses. */
const readiness = {
  worker: undefined as ReviewWorkers | undefined,
  readers: 'not_needed' as 'warming' | 'ok' | 'not_needed',
};

/** The search attributes the workflows set, and the retention's schedule, which starts one of them. */
async function registerWithTemporal(): Promise<void> {
  const operator = await connectTemporal(config);
  try {
    const added = await ensureSearchAttributes(operator, config.temporal.namespace);
    if (added.length > 0) log.info(`registered search attributes ${added.join(', ')}`);
    const temporal = new Client({
      connection: operator,
      namespace: config.temporal.namespace,
      dataConverter: temporalDataConverter(config),
    });
    const { taskQueue } = config.temporal;
    if (await ensureRetentionSchedule(temporal, taskQueue))
      log.info(`created the schedule ${retentionScheduleId(taskQueue)}`);
  } finally {
    await operator.close();
  }
}

/**
 * `attempt` once, or under pollAfterStdinCloses (launched beside a Temporal server that may still be
 * starting) tried again every 100 ms for up to a minute.
 */
async function onceTemporalAnswers<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      // Not a server still starting: nothing waiting changes.
      if (err instanceof MissingSearchAttributesError) throw err;
      if (!config.worker.pollAfterStdinCloses || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resolves when standard input closes (the local stack's word that the servers are ready). */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve).once('close', resolve).resume();
  });
}

/**
 * Connects to Temporal and creates the worker (which loads the workflow bundle into its sandbox), without
 * polling yet.
 */
async function createWorker(
  bundlePath: string | undefined,
  activities: ReviewActivities,
): Promise<{ worker: ReviewWorkers; connection: NativeConnection }> {
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect(temporalConnectionOptions(config));
  } catch (err) {
    throw new Error(`cannot connect to Temporal at ${describeTemporalConnection(config)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  try {
    const worker = await ReviewWorkers.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      queues: config.worker.queues,
      ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : {}),
      activities,
      analyses: config.worker.analyses,
      ingests: config.worker.ingests,
      workflowTasks: config.worker.workflowTasks,
      workflowThreads: config.worker.workflowThreads,
      dataConverter: temporalDataConverter(config),
      tracing,
    });
    return { worker, connection };
  } catch (err) {
    await connection.close();
    throw err;
  }
}

async function main() {
  const reviews = config.worker.queues.includes('reviews');
  const analyses = config.worker.queues.includes('analysis');
  // A worker that only analyses yields the CPU to everything else on the machine, creates first.
  if (!reviews) lowerThisProcessPriority();
  // Built by npm start / npm test / the Dockerfile before the worker starts; built here only when the
  // sources changed since. Which one is said either way: a start that had to bundle is a slow start.
  const bundle = reviews ? await ensureWorkflowBundle(tracing ? 'traced' : 'plain') : undefined;
  if (bundle)
    log.info(`${bundle.built ? 'built the workflow bundle' : 'loading the pre-built workflow bundle'} ${bundle.path}`);
  const sql = createSql(config);
  let connection: NativeConnection | undefined;
  // The readers' module, once the worker polls: stopped at the end only if it was ever loaded.
  let readers: Promise<typeof import('../src/qc/reading/readers.js')> | undefined;
  try {
    // Everything up to polling is done while the local stack readies the servers (pollAfterStdinCloses):
    // polling waits for them, and the rest then no longer adds to the time until the service is ready.
    // The activities' modules (and the readers') load once the worker polls, like the readers warm then.
    const activities = lazyActivities(async () => {
      // MinIO's client (some 0.15 s of CPU) too: only the activities use it.
      const { createStorage } = await import('../src/storage/minio.js');
      return { config, sql, storage: createStorage(config) };
    });
    const created = await onceTemporalAnswers(() => createWorker(bundle?.path, activities.activities));
    connection = created.connection;
    const worker = created.worker;
    // Registered here, not by the local stack, whose launcher then does without Temporal's client and its
    // protobufs (some 0.4 s of CPU while the servers start); before the go-ahead, while the stack readies
    // the database and the bucket. The workflows set them (and the schedule starts one): the worker that
    // runs workflows registers them.
    if (reviews) await onceTemporalAnswers(registerWithTemporal);
    if (config.worker.pollAfterStdinCloses) {
      await stdinClosed();
      // Its input is done with: a stdin left open and referenced would keep the process from exiting.
      process.stdin.destroy();
    }
    const { taskQueue } = config.temporal;
    const polled = config.worker.queues.map((q) =>
      q === 'reviews'
        ? `${taskQueue}, ${ingestTaskQueue(taskQueue)} (${config.worker.ingests} at once)`
        : `${analysisTaskQueue(taskQueue)} (${config.worker.analyses} at once)`,
    );
    readiness.worker = worker;
    log.info(
      `polling task queue${polled.length > 1 ? 's' : ''} ${polled.join(' and ')} on ` +
        `${describeTemporalConnection(config)}`,
    );
    const running = worker.run();
    // The readers warm once the worker polls, not before: they are most of the CPU a start costs (some
    // 1.7 s with two OCR workers), which on a machine of two cores delayed readiness by as much. Started
    // still ahead of the first task's need: a task that comes before they are warm waits for them (the
    // pools queue it), and a reader that cannot start shuts this worker down (exit 1) rather than fail
    // reviews one by one. Only analyses read.
    let readersFailed: unknown;
    if (analyses) {
      readiness.readers = 'warming';
      readers = import('../src/qc/reading/readers.js');
      Promise.all([activities.load(), readers])
        .then(([, loaded]) => loaded.startReaders({ ocrWorkers: config.qc.ocrWorkers, ocrEngine: config.qc.ocrEngine }))
        .then(
          () => {
            readiness.readers = 'ok';
            log.info('pdf.js threads and OCR workers ready');
          },
          (err: unknown) => {
            readersFailed = err;
            log.error('a reader could not start: shutting down', { error: err });
            worker.shutdown();
          },
        );
    } else {
      // Its first create should not wait for the activities' modules either (a failure shows at that create).
      activities.load().catch(() => {});
    }
    await running;
    if (readersFailed !== undefined) throw readersFailed;
  } finally {
    // A worker that never got to poll has no readers to stop, and loads none to find out.
    await readers?.then(
      (loaded) => loaded.stopReaders(),
      () => undefined,
    );
    await connection?.close();
    await sql.end({ timeout: 5 });
    await tracing?.shutdown();
  }
}

/**
 * The operations port: the SDK's metrics after the worker's own, liveness (the process answers), and
 * readiness (polling, readers warm) for an orchestrator.
 */
async function serveOperations(): Promise<void> {
  watchPolling(config.worker.queues, () => readiness.worker?.polling() ?? false);
  const port = config.telemetry.ops.port ?? DEFAULT_OPS_PORT.worker;
  if (port === 0) return;
  const ready = () => {
    const checks = { polling: readiness.worker?.polling() ? 'ok' : 'not_polling', readers: readiness.readers };
    const ok = checks.polling === 'ok' && checks.readers !== 'warming';
    return json(ok ? 200 : 503, { status: ok ? 'ready' : 'not_ready', checks });
  };
  await startOpsServer(config.telemetry.ops.host, port, {
    '/healthz': () => json(200, { status: 'ok' }),
    '/readyz': ready,
    ...(sdkMetricsPort === undefined
      ? {}
      : {
          '/metrics': async () => ({
            status: 200,
            contentType: workerRegistry.contentType,
            body: (await workerRegistry.metrics()) + (await sdkMetricsText(sdkMetricsPort)),
          }),
        }),
  }).then(
    (server) => {
      server.unref();
      log.info(`operations server listening on http://${config.telemetry.ops.host}:${port}`);
    },
    (err: unknown) => {
      log.error(`operations server cannot listen on ${config.telemetry.ops.host}:${port}: ${(err as Error).message}`);
      return exitAfterLogs(1);
    },
  );
}

await serveOperations();

main().then(
  () => exitAfterLogs(0),
  (err) => {
    // What an operator must do, in its words, rather than a stack trace.
    if (err instanceof MissingSearchAttributesError) log.error(`cannot start: ${err.message}`);
    else log.error('failed', { error: err });
    // Once the last records (pino writes them asynchronously) are on stderr.
    return exitAfterLogs(1);
  },
);
