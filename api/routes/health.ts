// Liveness (/healthz: the process answers) and readiness (/readyz: every dependency answers in time, and
// a worker polls the review task queue: without one a create answers 503, so the service is not ready to
// take and process reviews even when the API and its servers are).
import { Router } from 'express';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import type { Storage } from '../../src/storage/minio.js';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal: temporalApi } = proto;

export interface HealthDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
  temporal: Client;
}

const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes({ config, sql, storage, temporal }: HealthDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, minio, temporalCheck, worker] = await Promise.all([
      check(() => sql`select 1`),
      check(async () => {
        if (!(await storage.client.bucketExists(storage.bucket))) throw new Error('bucket missing');
      }),
      check(() => temporal.connection.workflowService.getSystemInfo({})),
      // Temporal lists the workers that polled the queue lately (it forgets one minutes after its last
      // poll): none means nothing would run a review created now.
      check(async () => {
        const { pollers } = await temporal.workflowService.describeTaskQueue({
          namespace: config.temporal.namespace,
          taskQueue: { name: config.temporal.taskQueue },
          taskQueueType: temporalApi.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        if ((pollers ?? []).length === 0) throw new Error('no worker polls the task queue');
      }),
    ]);
    const checks = { postgres, minio, temporal: temporalCheck, worker };
    const ready = Object.values(checks).every((c) => c === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  return router;
}
