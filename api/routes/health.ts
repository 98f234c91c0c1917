// Liveness (/healthz: the process answers) and readiness (/readyz: every dependency answers in time).
import { Router } from 'express';
import type { Client } from '@temporalio/client';
import type { Sql } from '../../src/db/client.js';
import type { Storage } from '../../src/storage/minio.js';

export interface HealthDeps {
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

export function healthRoutes({ sql, storage, temporal }: HealthDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, minio, temporalCheck] = await Promise.all([
      check(() => sql`select 1`),
      check(async () => {
        if (!(await storage.client.bucketExists(storage.bucket))) throw new Error('bucket missing');
      }),
      check(() => temporal.connection.workflowService.getSystemInfo({})),
    ]);
    const checks = { postgres, minio, temporal: temporalCheck };
    const ready = Object.values(checks).every((c) => c === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  return router;
}
