// The whole local stack — PostgreSQL, MinIO, the Temporal dev server (with its UI), the worker and the
// API — started under one Supervisor. `npm start` and `npm test` both use it; they differ in ports,
// data directory and durability.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal } = proto;
import { loadConfig, type Config } from '../../src/config.js';
import { createSql } from '../../src/db/client.js';
import { createApiKey } from '../../src/db/keys.js';
import { createOrganization, listOrganizations } from '../../src/db/organizations.js';
import { migrate } from '../../src/db/migrate.js';
import { createStorage, ensureBucket } from '../../src/storage/minio.js';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes.js';
import { ensureWorkflowBundle } from '../../worker/workflow-bundle.js';
import { ensureGoBinary, MINIO_SERVER, TEMPORAL_CLI } from './go-binaries.js';
import { ensureDatabase, initCluster, postgresBinDir, postgresProcess, postgresUser } from './postgres.js';
import { Supervisor, type RestartPolicy, type Supervised } from './supervisor.js';
import { ensureTesseract } from './tesseract.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface StackPorts {
  api: number;
  postgres: number;
  minio: number;
  minioConsole: number;
  temporal: number;
  temporalUi: number;
  temporalHttp: number;
  temporalMetrics: number;
}

/** Generated once per data directory and kept there, so a restarted stack finds its own data. */
interface StackSecrets {
  postgresPassword: string;
  minioAccessKey: string;
  minioSecretKey: string;
  serverSecret: string;
  webhookSecretKey: string;
}

export interface StackOptions {
  dataDir: string;
  ports: StackPorts;
  /** false for a throw-away test cluster (no fsync). */
  durable: boolean;
  /** Echo API and worker output to the console. */
  echoServices: boolean;
  /** Extra service environment (limits, test-only switches). */
  serviceEnv?: Record<string, string>;
  /** Restart a process that exits (supervisor.ts RestartPolicy); off for tests, which kill on purpose. */
  restart?: RestartPolicy;
  log: (line: string) => void;
}

export interface Stack {
  supervisor: Supervisor;
  /** The environment the API and worker run with; tests start more of them with it. */
  serviceEnv: Record<string, string>;
  config: Config;
  urls: { api: string; temporalUi: string; minioConsole: string };
  worker: Supervised;
  api: Supervised;
  stop: () => Promise<void>;
}

async function loadSecrets(dataDir: string): Promise<StackSecrets> {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as StackSecrets;
  const token = (n: number) => randomBytes(n).toString('base64url');
  const secrets: StackSecrets = {
    postgresPassword: token(18),
    minioAccessKey: `review-${token(6)}`,
    minioSecretKey: token(24),
    serverSecret: token(36),
    webhookSecretKey: randomBytes(32).toString('base64'),
  };
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000}s${lastError ? `: ${lastError}` : ''}`);
}

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.body?.cancel();
  return res.ok;
}

export function serviceEnvironment(
  base: NodeJS.ProcessEnv,
  o: { ports: StackPorts; secrets: StackSecrets; extra?: Record<string, string> },
): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return {
    ...inherited,
    HOST: '127.0.0.1',
    PORT: String(o.ports.api),
    DATABASE_URL: `postgres://review:${encodeURIComponent(o.secrets.postgresPassword)}@127.0.0.1:${o.ports.postgres}/review`,
    MINIO_ENDPOINT: `http://127.0.0.1:${o.ports.minio}`,
    MINIO_ACCESS_KEY: o.secrets.minioAccessKey,
    MINIO_SECRET_KEY: o.secrets.minioSecretKey,
    TEMPORAL_ADDRESS: `127.0.0.1:${o.ports.temporal}`,
    SERVER_SECRET: o.secrets.serverSecret,
    WEBHOOK_SECRET_KEY: o.secrets.webhookSecretKey,
    ...o.extra,
  };
}

/** Starts the API or the worker as a supervised child with the given environment. */
export function startService(
  supervisor: Supervisor,
  role: 'api' | 'worker',
  env: Record<string, string>,
  logDir: string,
  echo: boolean,
  name: string = role,
): Supervised {
  const entry = role === 'api' ? 'api/server.ts' : 'worker/main.ts';
  return supervisor.start({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', join(REPO_ROOT, entry)],
    cwd: REPO_ROOT,
    env,
    logFile: join(logDir, `${name}.log`),
    echo,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 20_000,
  });
}

/** Resolves once a worker polls the task queue (its workflow bundle is built and it is ready). */
export async function waitForWorker(config: Config, timeoutMs = 120_000): Promise<void> {
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    await waitFor('the worker', timeoutMs, async () => {
      const res = await client.workflowService.describeTaskQueue({
        namespace: config.temporal.namespace,
        taskQueue: { name: config.temporal.taskQueue },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      return (res.pollers ?? []).length > 0;
    });
  } finally {
    await connection.close();
  }
}

export async function waitForApi(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  await waitFor('the API', timeoutMs, () => httpOk(`${baseUrl}/readyz`));
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const log = o.log;
  const env = process.env;
  const logDir = join(o.dataDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const secrets = await loadSecrets(o.dataDir);
  const supervisor = new Supervisor(o.restart);
  const stop = () => supervisor.stopAll();
  try {
    const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
      const t0 = Date.now();
      const result = await step();
      log(`${what} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
      return result;
    };

    const [temporalBin, minioBin, pgBin] = await Promise.all([
      ensureGoBinary(env, TEMPORAL_CLI, log),
      ensureGoBinary(env, MINIO_SERVER, log),
      // Tesseract after PostgreSQL: both may need apt-get, which takes one lock.
      postgresBinDir(env, log).then(async (bin) => (await ensureTesseract(env, log), bin)),
    ]);

    const serviceEnv = serviceEnvironment(env, { ports: o.ports, secrets, extra: o.serviceEnv });
    const config = loadConfig(serviceEnv);

    const pgUser = await postgresUser();
    const cluster = {
      binDir: pgBin,
      dataDir: join(o.dataDir, 'postgres'),
      user: pgUser,
      superuser: 'review',
      password: secrets.postgresPassword,
    };
    await initCluster(cluster, log);
    supervisor.start(
      postgresProcess({ ...cluster, port: o.ports.postgres, logFile: join(logDir, 'postgres.log'), durable: o.durable }),
    );

    await mkdir(join(o.dataDir, 'minio'), { recursive: true });
    supervisor.start({
      name: 'minio',
      command: minioBin,
      args: [
        'server',
        join(o.dataDir, 'minio'),
        '--address',
        `127.0.0.1:${o.ports.minio}`,
        '--console-address',
        `127.0.0.1:${o.ports.minioConsole}`,
        '--quiet',
      ],
      env: {
        ...serviceEnv,
        MINIO_ROOT_USER: secrets.minioAccessKey,
        MINIO_ROOT_PASSWORD: secrets.minioSecretKey,
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
      },
      logFile: join(logDir, 'minio.log'),
    });

    await mkdir(join(o.dataDir, 'temporal'), { recursive: true });
    supervisor.start({
      name: 'temporal',
      command: temporalBin,
      args: [
        'server',
        'start-dev',
        '--db-filename',
        join(o.dataDir, 'temporal', 'temporal.db'),
        '--ip',
        '127.0.0.1',
        '--port',
        String(o.ports.temporal),
        '--ui-ip',
        '127.0.0.1',
        '--ui-port',
        String(o.ports.temporalUi),
        '--http-port',
        String(o.ports.temporalHttp),
        '--metrics-port',
        String(o.ports.temporalMetrics),
        '--namespace',
        config.temporal.namespace,
        '--log-level',
        'warn',
      ],
      env: serviceEnv,
      logFile: join(logDir, 'temporal.log'),
    });

    const databaseUrl = new URL(config.database.url);
    await Promise.all([
      // Built once here, while the servers start, so that no worker bundles at its start.
      timed('workflow bundle ready', ensureWorkflowBundle),
      timed('PostgreSQL ready', async () => {
        await ensureDatabase(databaseUrl, 60_000);
        await migrate(config, log);
      }),
      timed('MinIO ready', async () => {
        await waitFor('MinIO', 60_000, () => httpOk(`http://127.0.0.1:${o.ports.minio}/minio/health/live`));
        await ensureBucket(createStorage(config), config.minio.region);
      }),
      timed('Temporal ready', async () => {
        await waitFor('Temporal', 90_000, async () => {
          const connection = await Connection.connect({ address: config.temporal.address, connectTimeout: 2_000 });
          try {
            await connection.workflowService.describeNamespace({ namespace: config.temporal.namespace });
            await ensureSearchAttributes(connection, config.temporal.namespace);
            return true;
          } finally {
            await connection.close();
          }
        });
        await waitFor('Temporal UI', 60_000, () => httpOk(`http://127.0.0.1:${o.ports.temporalUi}/`));
      }),
    ]);

    const worker = startService(supervisor, 'worker', serviceEnv, logDir, o.echoServices);
    await timed('worker polling', () => waitForWorker(config));
    const api = startService(supervisor, 'api', serviceEnv, logDir, o.echoServices);
    const apiRoot = `http://127.0.0.1:${o.ports.api}`;
    await timed('API ready', () => waitForApi(apiRoot));

    return {
      supervisor,
      serviceEnv,
      config,
      urls: {
        api: `${apiRoot}/v1`,
        temporalUi: `http://127.0.0.1:${o.ports.temporalUi}`,
        minioConsole: `http://127.0.0.1:${o.ports.minioConsole}`,
      },
      worker,
      api,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Creates a first organization with a live and a sandbox key when the database has none. */
export async function bootstrapOrganization(
  config: Config,
  keysFile: string,
): Promise<{ organizationId: string; liveKey: string; sandboxKey: string } | undefined> {
  const sql = createSql(config, { max: 1 });
  try {
    if ((await listOrganizations(sql)).length > 0) {
      if (!existsSync(keysFile)) return undefined;
      return JSON.parse(await readFile(keysFile, 'utf8')) as { organizationId: string; liveKey: string; sandboxKey: string };
    }
    const org = await createOrganization(sql, 'Local development');
    const live = await createApiKey(sql, { organizationId: org.id, sandbox: false, label: 'bootstrap live key' });
    const sandbox = await createApiKey(sql, { organizationId: org.id, sandbox: true, label: 'bootstrap sandbox key' });
    const keys = { organizationId: org.id, liveKey: live.key, sandboxKey: sandbox.key };
    // Local development only: the keys are kept in the (git-ignored) data directory to print them again.
    await writeFile(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
    return keys;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
