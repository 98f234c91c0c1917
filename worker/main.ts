// The worker process: registers search attributes, loads the pre-built workflow bundle, starts its readers
// (pdf.js threads, OCR workers), and only then polls the review task queue for workflow and activity
// tasks; it shuts down gracefully on SIGTERM/SIGINT (Temporal's runtime handles them).
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

async function main() {
  const operator = await Connection.connect({ address: config.temporal.address });
  try {
    const added = await ensureSearchAttributes(operator, config.temporal.namespace);
    if (added.length > 0) log(`registered search attributes ${added.join(', ')}`);
  } finally {
    await operator.close();
  }

  // Built by npm start / npm test / the Dockerfile; built here only when the sources changed since.
  const bundle = await ensureWorkflowBundle();
  if (bundle.built) log(`built the workflow bundle ${bundle.path}`);
  const sql = createSql(config);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    // Warm before the first task: an analysis then pays no start-up, and a reader that cannot start
    // stops this worker here instead of failing reviews.
    await startReaders({ ocrWorkers: config.qc.ocrWorkers, ocrEngine: config.qc.ocrEngine });
    const worker = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      workflowBundle: { codePath: bundle.path },
      activities: createActivities({ config, sql, storage: createStorage(config) }),
    });
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
