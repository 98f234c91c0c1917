// The worker process: registers search attributes, bundles the workflows, runs workflows and activities
// on the review task queue, and shuts down gracefully on SIGTERM/SIGINT (Temporal's runtime handles them).
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { loadConfigOrExit } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { createStorage } from '../src/storage/minio.js';
import { ensureSearchAttributes } from '../src/temporal/search-attributes.js';
import { terminateOcr } from '../src/qc/reading/ocr.js';
import { terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';

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

  const sql = createSql(config);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
      activities: createActivities({ config, sql, storage: createStorage(config) }),
      bundlerOptions: { ignoreModules: [] },
    });
    log(`polling task queue ${config.temporal.taskQueue} on ${config.temporal.address}`);
    await worker.run();
  } finally {
    await Promise.all([terminateOcr(), terminatePdfThreads()]);
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
