// The worker process: starts its readers (pdf.js threads, OCR workers), registers search attributes, loads
// the pre-built workflow bundle, and only then polls the review task queue for workflow and activity
// tasks; it shuts down gracefully on SIGTERM/SIGINT (Temporal's runtime handles them). Launched by the
// local stack beside its servers, it connects once they are ready (WORKER_START_AFTER_STDIN_CLOSES).
import { Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { loadConfigOrExit } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { createStorage } from '../src/storage/minio.js';
import { ensureSearchAttributes } from '../src/temporal/search-attributes.js';
import { startReaders, stopReaders } from '../src/qc/reading/readers.js';
import { ensureWorkflowBundle } from './workflow-bundle.js';

const config = loadConfigOrExit();
const log = (line: string) => console.log(`worker: ${line}`);

async function registerSearchAttributes(): Promise<void> {
  const operator = await Connection.connect({ address: config.temporal.address });
  try {
    const added = await ensureSearchAttributes(operator, config.temporal.namespace);
    if (added.length > 0) log(`registered search attributes ${added.join(', ')}`);
  } finally {
    await operator.close();
  }
}

/** Resolves when standard input closes (the local stack's word that the servers are ready). */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve).once('close', resolve).resume();
  });
}

async function main() {
  // Warm before the first task: an analysis then pays no start-up, and a reader that cannot start stops
  // this worker before it polls instead of failing reviews. They need no server, so they start first,
  // while the servers may still be starting (startAfterStdinCloses).
  const readers = startReaders({ ocrWorkers: config.qc.ocrWorkers });
  // Awaited before polling; a failure until then must not count as unhandled.
  readers.catch(() => {});
  if (config.worker.startAfterStdinCloses) {
    await stdinClosed();
    // Its input is done with: a stdin left open and referenced would keep the process from exiting.
    process.stdin.destroy();
  }
  // The steps that wait on the network or on other threads overlap: each would otherwise add to the time
  // before the worker polls, which is when the service is ready (/readyz). None polls before all are done.
  const [bundle, connection] = await Promise.all([
    // Built by npm start / npm test / the Dockerfile; built here only when the sources changed since.
    ensureWorkflowBundle(),
    NativeConnection.connect({ address: config.temporal.address }),
    registerSearchAttributes(),
  ]);
  // Which one is said either way: a start that had to bundle is a slow start to explain.
  log(`${bundle.built ? 'built the workflow bundle' : 'loading the pre-built workflow bundle'} ${bundle.path}`);
  const sql = createSql(config);
  try {
    const [worker] = await Promise.all([
      Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        workflowBundle: { codePath: bundle.path },
        activities: createActivities({ config, sql, storage: createStorage(config) }),
      }),
      readers,
    ]);
    log(`polling task queue ${config.temporal.taskQueue} on ${config.temporal.address}`);
    await worker.run();
  } finally {
    await stopReaders();
    await connection.close();
    await sql.end({ timeout: 5 });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error('worker: failed', err);
    process.exit(1);
  },
);
