// The whole local stack — PostgreSQL, MinIO, the Temporal dev server (with its UI), the worker and the
// API — started under one Supervisor. `npm start` and `npm test` both use it; they differ in ports,
// data directory and durability.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
// What talks to the servers (MinIO's client, the migrations and queries) is imported where it is used, not
// here: loading it then overlaps the servers' start instead of delaying their launch. Temporal's client and
// its protobufs (some 0.4 s of CPU) `npm start` does not load at all: it asks Temporal over its HTTP API,
// and the worker registers the search attributes.
import type { Connection } from '@temporalio/client';
import { loadConfig, type Config, type WorkerQueue } from '../../src/config.js';
import { analysisTaskQueue } from '../../src/temporal/task-queues.js';
import { SERVICE_USERS } from '../../src/storage/service-users.js';
import { ensureWorkflowBundle } from '../../worker/workflow-bundle.js';
import { ensureCompiled, SERVICES, type Compiled } from '../compile.js';
import { ensureGoBinary, MINIO_SERVER, TEMPORAL_CLI, TEMPORAL_SERVER, TEMPORAL_SQL_TOOL } from './go-binaries.js';
import { ensureClusterNamespace, setUpClusterSchemas, temporalClusterProcess } from './temporal-cluster.js';
import { CLUSTER_SERVER_NAME, createClusterCertificates } from './test-certificates.js';
import { freePort } from './ports.js';
import {
  ensureDatabase,
  initCluster,
  postgresBinDir,
  postgresProcess,
  postgresUser,
  serverTlsFiles,
} from './postgres.js';
import { SERVICE_DYNAMIC_CONFIG } from './temporal-settings.js';
import { Supervisor, type ChildSpec, type RestartPolicy, type Supervised } from './supervisor.js';
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
  /** The codec server the Temporal UI shows sealed payloads with (src/temporal/codec-server.ts). */
  codec: number;
  /** The operations ports (metrics, worker health; src/telemetry/ops-server.ts) of the API and both workers. */
  apiOps: number;
  workerOps: number;
  analysisOps: number;
}

/** Generated once per data directory and kept there, so a restarted stack finds its own data. */
export interface StackSecrets {
  postgresPassword: string;
  /** MinIO's root user: only the launcher uses it, to make the bucket and the service's users. */
  minioAccessKey: string;
  minioSecretKey: string;
  /** The secrets of the service's own MinIO users (src/storage/service-users.ts). */
  minioApiSecret: string;
  minioWorkerSecret: string;
  minioReportsSecret: string;
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
  /**
   * Run the API and the worker compiled to JavaScript (scripts/compile.ts, built or reused while the
   * servers start), as production does; else their TypeScript through tsx (npm test: no build after each
   * edit).
   */
  compiled?: boolean;
  /** Extra service environment (limits, test-only switches). */
  serviceEnv?: Record<string, string>;
  /**
   * Temporal as a secured self-hosted cluster (temporal-cluster.ts: the server built from its module,
   * PostgreSQL persistence, mutual TLS) instead of the CLI's dev server; it has no Web UI. For
   * `npm run test:cluster`.
   */
  temporalCluster?: boolean;
  /** PostgreSQL offers TLS with this certificate (the test suite's, whose CA it trusts). */
  postgresTls?: { certFile: string; keyFile: string };
  /** Restart a process that exits (supervisor.ts RestartPolicy); off for tests, which kill on purpose. */
  restart?: RestartPolicy;
  /**
   * The supervisor to start the processes under, when the caller must be able to stop them while the
   * stack is still starting (npm start on a signal); else one of the stack's own.
   */
  supervisor?: Supervisor;
  log: (line: string) => void;
}

export interface Stack {
  supervisor: Supervisor;
  /**
   * The environment the worker runs with (as the worker's MinIO user); tests start more workers, and run
   * the admin CLI, with it.
   */
  serviceEnv: Record<string, string>;
  /** The API's: serviceEnv with the API's MinIO user and the presign user of report links. */
  apiServiceEnv: Record<string, string>;
  config: Config;
  urls: { api: string; temporalUi: string; minioConsole: string; codec: string };
  /** The worker of the review queue (workflows, ingest, bookkeeping, webhooks). */
  worker: Supervised;
  /** The worker of the analysis queue (analyses and renders). */
  analysis: Supervised;
  api: Supervised;
  stop: () => Promise<void>;
}

async function loadSecrets(dataDir: string): Promise<StackSecrets> {
  const file = join(dataDir, 'secrets.json');
  const kept = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Partial<StackSecrets>) : {};
  const token = (n: number) => randomBytes(n).toString('base64url');
  // A data directory made before a secret existed gets it now, and keeps every one it had.
  const secrets: StackSecrets = {
    postgresPassword: token(18),
    minioAccessKey: `review-${token(6)}`,
    minioSecretKey: token(24),
    minioApiSecret: token(24),
    minioWorkerSecret: token(24),
    minioReportsSecret: token(24),
    serverSecret: token(36),
    webhookSecretKey: randomBytes(32).toString('base64'),
    ...kept,
  };
  if (Object.keys(kept).length < Object.keys(secrets).length)
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    // Short: every probe is cheap, and each interval is added to the start-up of all that waits on it.
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000}s${lastError ? `: ${lastError}` : ''}`);
}

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.body?.cancel();
  return res.ok;
}

/** MinIO serving objects from `dataDir`, its console beside it. */
export function minioProcess(o: {
  bin: string;
  dataDir: string;
  ports: Pick<StackPorts, 'minio' | 'minioConsole'>;
  secrets: Pick<StackSecrets, 'minioAccessKey' | 'minioSecretKey'>;
  env: Record<string, string>;
  logFile: string;
}): ChildSpec {
  return {
    name: 'minio',
    command: o.bin,
    args: [
      'server',
      o.dataDir,
      '--address',
      `127.0.0.1:${o.ports.minio}`,
      '--console-address',
      `127.0.0.1:${o.ports.minioConsole}`,
      '--quiet',
    ],
    env: {
      ...o.env,
      MINIO_ROOT_USER: o.secrets.minioAccessKey,
      MINIO_ROOT_PASSWORD: o.secrets.minioSecretKey,
      MINIO_UPDATE: 'off',
      MINIO_CALLHOME_ENABLE: 'off',
    },
    logFile: o.logFile,
  };
}

/** The Temporal CLI's dev server (SQLite in `dbFile`) with its Web UI, the namespace created at start. */
export function temporalProcess(o: {
  bin: string;
  dbFile: string;
  ports: Pick<StackPorts, 'temporal' | 'temporalUi' | 'temporalHttp' | 'temporalMetrics' | 'codec'>;
  namespace: string;
  env: Record<string, string>;
  logFile: string;
}): ChildSpec {
  return {
    name: 'temporal',
    command: o.bin,
    args: [
      'server',
      'start-dev',
      '--db-filename',
      o.dbFile,
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
      // The UI opens the service's sealed payloads with the codec server the stack serves beside it.
      '--ui-codec-endpoint',
      `http://127.0.0.1:${o.ports.codec}`,
      '--namespace',
      o.namespace,
      '--log-level',
      'warn',
      // Write-ahead logging, synced at checkpoints rather than at every commit: a killed server loses
      // nothing (the log is in the kernel's hands), a power cut at most its last commits. Synced at every
      // commit, the dev server took a burst of creates at under 4 workflow tasks a second.
      '--sqlite-pragma',
      'journal_mode=wal',
      '--sqlite-pragma',
      'synchronous=normal',
      // One write partition per task queue, eager activities, prompt deletions (temporal-settings.ts).
      ...SERVICE_DYNAMIC_CONFIG.flatMap(({ key, value }) => [
        '--dynamic-config-value',
        `${key}=${JSON.stringify(value)}`,
      ]),
    ],
    env: o.env,
    logFile: o.logFile,
  };
}

/** MinIO's own liveness endpoint answers. */
export const minioAnswers = (port: number): Promise<boolean> => httpOk(`http://127.0.0.1:${port}/minio/health/live`);

/**
 * Temporal answers for the namespace (over gRPC, with the SDK's client); `then` runs on the same
 * connection before it is closed.
 */
export async function temporalAnswers(
  address: string,
  namespace: string,
  then?: (connection: Connection) => Promise<unknown>,
): Promise<boolean> {
  const { Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address, connectTimeout: 2_000 });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    await then?.(connection);
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * The same over the dev server's HTTP API (its --http-port), which costs a fetch where the gRPC client
 * costs loading it and its protobufs.
 */
export const temporalHttpAnswers = (httpPort: number, namespace: string): Promise<boolean> =>
  httpOk(`http://127.0.0.1:${httpPort}/api/v1/namespaces/${encodeURIComponent(namespace)}`);

/**
 * A worker polls the review queue for workflow tasks, or the analysis queue for activities, as Temporal's
 * HTTP API lists it (like waitForWorker's gRPC ask).
 */
export async function workerPolls(httpPort: number, config: Config, queue: WorkerQueue = 'reviews'): Promise<boolean> {
  const { namespace } = config.temporal;
  const [taskQueue, type] =
    queue === 'reviews'
      ? [config.temporal.taskQueue, 'WORKFLOW']
      : [analysisTaskQueue(config.temporal.taskQueue), 'ACTIVITY'];
  const path = `namespaces/${encodeURIComponent(namespace)}/task-queues/${encodeURIComponent(taskQueue)}`;
  const url = `http://127.0.0.1:${httpPort}/api/v1/${path}?taskQueueType=TASK_QUEUE_TYPE_${type}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  if (!res.ok) {
    await res.body?.cancel();
    return false;
  }
  const body = (await res.json()) as { pollers?: unknown[] };
  return (body.pollers ?? []).length > 0;
}

/** The API's environment: its own MinIO user, and the presign user that signs report links. */
export function apiEnvironment(serviceEnv: Record<string, string>, secrets: StackSecrets): Record<string, string> {
  return {
    ...serviceEnv,
    S3_ACCESS_KEY: SERVICE_USERS.api,
    S3_SECRET_KEY: secrets.minioApiSecret,
    S3_PRESIGN_ACCESS_KEY: SERVICE_USERS.reports,
    S3_PRESIGN_SECRET_KEY: secrets.minioReportsSecret,
  };
}

export function serviceEnvironment(
  base: NodeJS.ProcessEnv,
  o: { ports: StackPorts; secrets: StackSecrets; extra?: Record<string, string> },
): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  return {
    // The local stack is development unless told otherwise (a service refuses to start without NODE_ENV).
    NODE_ENV: 'development',
    ...inherited,
    HOST: '127.0.0.1',
    PORT: String(o.ports.api),
    DATABASE_URL:
      `postgres://review:${encodeURIComponent(o.secrets.postgresPassword)}` + `@127.0.0.1:${o.ports.postgres}/review`,
    S3_ENDPOINT: `http://127.0.0.1:${o.ports.minio}`,
    // Never the root user: the worker's own (the launcher makes it), and the API's below.
    S3_ACCESS_KEY: SERVICE_USERS.worker,
    S3_SECRET_KEY: o.secrets.minioWorkerSecret,
    TEMPORAL_ADDRESS: `127.0.0.1:${o.ports.temporal}`,
    CODEC_SERVER_PORT: String(o.ports.codec),
    // None for a process started from this environment unless it says its own (each of the stack's does):
    // two processes must not both want the default.
    OPS_PORT: '0',
    SERVER_SECRET: o.secrets.serverSecret,
    WEBHOOK_SECRET_KEY: o.secrets.webhookSecretKey,
    ...o.extra,
  };
}

/**
 * Starts the API or the worker as a supervised child with the given environment: from `compiled`, the
 * JavaScript scripts/compile.ts built, when given, else its TypeScript through tsx; with its standard
 * input open until `stdinOpenUntil` settles, when given.
 */
export function startService(
  supervisor: Supervisor,
  role: 'api' | 'worker',
  env: Record<string, string>,
  logDir: string,
  echo: boolean,
  name: string = role,
  from: { compiled?: Compiled['files'] | undefined; stdinOpenUntil?: Promise<unknown>; background?: boolean } = {},
): Supervised {
  const entry = role === 'api' ? 'api/server.ts' : 'worker/main.ts';
  const program = from.compiled?.[role];
  return supervisor.start({
    name,
    command: process.execPath,
    // Source maps: a compiled service's stack traces name the TypeScript lines.
    args: program ? ['--enable-source-maps', program] : ['--import', 'tsx', join(REPO_ROOT, entry)],
    cwd: REPO_ROOT,
    env,
    logFile: join(logDir, `${name}.log`),
    echo,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 20_000,
    ...(from.stdinOpenUntil ? { stdinOpenUntil: from.stdinOpenUntil } : {}),
    ...(from.background ? { background: true } : {}),
  });
}

/** Resolves once a worker polls the task queue (its workflow bundle is built and it is ready). */
export async function waitForWorker(
  config: Config,
  timeoutMs = 120_000,
  queue: WorkerQueue = 'reviews',
): Promise<void> {
  const [{ Client }, { default: proto }, { connectTemporal }] = await Promise.all([
    import('@temporalio/client'),
    import('@temporalio/proto'),
    import('../../src/temporal/connection.js'),
  ]);
  // A CommonJS module: its namespaces are properties of the default export under ESM.
  const { temporal } = proto;
  const connection = await connectTemporal(config);
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    await waitFor(queue === 'reviews' ? 'the worker' : 'the analysis worker', timeoutMs, async () => {
      const res = await client.workflowService.describeTaskQueue({
        namespace: config.temporal.namespace,
        taskQueue: {
          name: queue === 'reviews' ? config.temporal.taskQueue : analysisTaskQueue(config.temporal.taskQueue),
        },
        // The analysis queue has activities only.
        taskQueueType:
          queue === 'reviews'
            ? temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW
            : temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
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
  const supervisor = o.supervisor ?? new Supervisor(o.restart);
  let codecServer: Server | undefined;
  const stop = async () => {
    codecServer?.close();
    await supervisor.stopAll();
  };
  try {
    const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
      const t0 = Date.now();
      const result = await step();
      log(`${what} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
      return result;
    };

    const [temporalBin, minioBin, pgBin, sqlToolBin] = await Promise.all([
      supervisor.step((signal) => ensureGoBinary(env, o.temporalCluster ? TEMPORAL_SERVER : TEMPORAL_CLI, log, signal)),
      supervisor.step((signal) => ensureGoBinary(env, MINIO_SERVER, log, signal)),
      supervisor.step((signal) => postgresBinDir(env, log, signal)),
      o.temporalCluster ? supervisor.step((signal) => ensureGoBinary(env, TEMPORAL_SQL_TOOL, log, signal)) : undefined,
    ]);
    // Tesseract after PostgreSQL (both may need apt-get, which takes one lock), and while the servers
    // start: only the worker reads with it, so it is awaited before the worker is launched, not before them.
    const tesseract = supervisor.step((signal) => ensureTesseract(env, log, signal));
    tesseract.catch(() => {});

    // A secured cluster's certificates; the services reach it as they would any: TEMPORAL_TLS_*.
    const clusterCerts = o.temporalCluster
      ? await createClusterCertificates(join(o.dataDir, 'tls-cluster'))
      : undefined;
    const clusterEnv: Record<string, string> = clusterCerts
      ? {
          TEMPORAL_TLS_CA: clusterCerts.caFile,
          TEMPORAL_TLS_CERT: clusterCerts.clientCertFile,
          TEMPORAL_TLS_KEY: clusterCerts.clientKeyFile,
          TEMPORAL_TLS_SERVER_NAME: CLUSTER_SERVER_NAME,
        }
      : {};
    const serviceEnv = serviceEnvironment(env, { ports: o.ports, secrets, extra: { ...clusterEnv, ...o.serviceEnv } });
    const config = loadConfig(serviceEnv);

    // Checked (some 15 ms) or built while the servers are launched: the worker and the API start from it.
    // The workflow bundle likewise (checked in some 30 ms), so that no worker bundles at its start.
    const compiling = Promise.all([
      o.compiled ? timed('compiled API and worker ready', () => ensureCompiled(SERVICES)) : undefined,
      // The one the stack's workers run: with the tracing interceptors when they trace (worker/main.ts).
      timed('workflow bundle ready', () => ensureWorkflowBundle(config.telemetry.otlpEndpoint ? 'traced' : 'plain')),
    ]);
    // Awaited below; until then a failure must not count as unhandled (it stops the stack there).
    compiling.catch(() => {});

    const pgUser = await postgresUser();
    const cluster = {
      binDir: pgBin,
      dataDir: join(o.dataDir, 'postgres'),
      user: pgUser,
      superuser: 'review',
      password: secrets.postgresPassword,
    };
    await supervisor.step((signal) => initCluster(cluster, log, signal));
    const postgresTls = o.postgresTls ? await serverTlsFiles(cluster, o.postgresTls) : undefined;
    supervisor.start(
      postgresProcess({
        ...cluster,
        port: o.ports.postgres,
        logFile: join(logDir, 'postgres.log'),
        durable: o.durable,
        ...(postgresTls ? { tls: postgresTls } : {}),
      }),
    );

    await mkdir(join(o.dataDir, 'minio'), { recursive: true });
    supervisor.start(
      minioProcess({
        bin: minioBin,
        dataDir: join(o.dataDir, 'minio'),
        ports: o.ports,
        secrets,
        env: serviceEnv,
        logFile: join(logDir, 'minio.log'),
      }),
    );

    await mkdir(join(o.dataDir, 'temporal'), { recursive: true });
    const databaseUrl = new URL(config.database.url);
    // The cluster starts once PostgreSQL holds its schemas, and the services once it serves the namespace
    // (a worker waits a minute at most for Temporal, which a cluster setting up its schemas can outlast).
    const clusterReady = clusterCerts
      ? timed('Temporal cluster ready (PostgreSQL persistence, mutual TLS)', async () => {
          await ensureDatabase(databaseUrl, 60_000);
          await supervisor.step((signal) =>
            setUpClusterSchemas(
              sqlToolBin!,
              { host: '127.0.0.1', port: o.ports.postgres, user: 'review', password: secrets.postgresPassword },
              signal,
            ),
          );
          const [
            history,
            historyMembership,
            matching,
            matchingMembership,
            worker,
            workerMembership,
            frontendMembership,
          ] = await Promise.all(Array.from({ length: 7 }, () => freePort()));
          supervisor.start(
            await temporalClusterProcess({
              bin: temporalBin,
              dir: join(o.dataDir, 'temporal'),
              ports: {
                frontend: o.ports.temporal,
                frontendMembership: frontendMembership!,
                history: history!,
                historyMembership: historyMembership!,
                matching: matching!,
                matchingMembership: matchingMembership!,
                worker: worker!,
                workerMembership: workerMembership!,
              },
              certs: clusterCerts,
              db: { host: '127.0.0.1', port: o.ports.postgres, user: 'review', password: secrets.postgresPassword },
              logFile: join(logDir, 'temporal.log'),
            }),
          );
          await ensureClusterNamespace(config, 120_000);
        })
      : undefined;
    if (!clusterReady)
      supervisor.start(
        temporalProcess({
          bin: temporalBin,
          dbFile: join(o.dataDir, 'temporal', 'temporal.db'),
          ports: o.ports,
          namespace: config.temporal.namespace,
          env: serviceEnv,
          logFile: join(logDir, 'temporal.log'),
        }),
      );

    // The worker and the API are launched now, beside the servers, so that loading their code overlaps
    // the servers' start: the worker connects (Temporal is up first), loads its workflow bundle and
    // registers the search attributes, then waits with its stdin open until the database is migrated and
    // the bucket made before it polls; the API connects lazily and answers /readyz 503 until every
    // dependency answers and a worker polls (api/routes/health.ts), so "ready" still means reviews are
    // taken and processed.
    const [compiled] = await compiling;
    await tesseract;
    await clusterReady;
    let serversAnswer: () => void = () => {};
    let serversFail: (err: unknown) => void = () => {};
    const gate = new Promise<void>((resolve, reject) => {
      serversAnswer = resolve;
      serversFail = reject;
    });
    // The supervisor handles it for the worker; a failure before the worker is started is the stack's.
    gate.catch(() => {});
    // Two worker processes, as production runs them: one for workflows and the activities a create waits
    // for, one that analyses at a lower priority (src/temporal/task-queues.ts).
    const worker = startService(
      supervisor,
      'worker',
      {
        ...serviceEnv,
        WORKER_QUEUES: 'reviews',
        WORKER_POLL_AFTER_STDIN_CLOSES: 'true',
        OPS_PORT: String(o.ports.workerOps),
      },
      logDir,
      o.echoServices,
      'worker',
      {
        compiled: compiled?.files,
        stdinOpenUntil: gate,
      },
    );
    const analysis = startService(
      supervisor,
      'worker',
      {
        ...serviceEnv,
        WORKER_QUEUES: 'analysis',
        WORKER_POLL_AFTER_STDIN_CLOSES: 'true',
        OPS_PORT: String(o.ports.analysisOps),
      },
      logDir,
      o.echoServices,
      'analysis',
      {
        compiled: compiled?.files,
        stdinOpenUntil: gate,
        background: true,
      },
    );
    const apiServiceEnv = apiEnvironment(serviceEnv, secrets);
    const api = startService(
      supervisor,
      'api',
      { ...apiServiceEnv, OPS_PORT: String(o.ports.apiOps) },
      logDir,
      o.echoServices,
      'api',
      {
        compiled: compiled?.files,
      },
    );
    const apiRoot = `http://127.0.0.1:${o.ports.api}`;

    // What the worker needs before it polls, besides Temporal (which it waits for itself): PostgreSQL
    // migrated and MinIO with its bucket. Each probe begins at once; the modules of what follows it load
    // meanwhile. Temporal is asked too, for its line in the log and a plain error if it never answers.
    const temporalReady = clusterReady
      ? Promise.resolve()
      : timed('Temporal ready', () =>
          waitFor('Temporal', 90_000, () => temporalHttpAnswers(o.ports.temporalHttp, config.temporal.namespace)),
        );
    temporalReady.catch(() => {});
    const serversReady = Promise.all([
      timed('PostgreSQL ready', async () => {
        const [{ migrate }] = await Promise.all([
          import('../../src/db/migrate.js'),
          ensureDatabase(databaseUrl, 60_000),
        ]);
        await migrate(config, log);
      }),
      timed('MinIO ready', async () => {
        const [{ createStorage, ensureBucket }, { adminTargetOf, provisionServiceUsers }] = await Promise.all([
          import('../../src/storage/minio.js'),
          import('../../src/storage/service-users.js'),
          waitFor('MinIO', 60_000, () => minioAnswers(o.ports.minio)),
        ]);
        // As MinIO's root user, the launcher's alone: the bucket, then the service's users.
        const root = loadConfig({
          ...serviceEnv,
          S3_ACCESS_KEY: secrets.minioAccessKey,
          S3_SECRET_KEY: secrets.minioSecretKey,
        });
        await ensureBucket(createStorage(root), root.minio.region);
        await provisionServiceUsers(adminTargetOf(root), root.minio.bucket, {
          api: secrets.minioApiSecret,
          worker: secrets.minioWorkerSecret,
          reports: secrets.minioReportsSecret,
        });
      }),
    ]);
    serversReady.then(() => serversAnswer(), serversFail);
    await Promise.all([serversReady, temporalReady]);
    await Promise.all([
      // The API's /readyz is asked once the worker polls, not before: every 503 until then would be a
      // line of its log on the console (and a round of checks for the servers while they are busiest).
      (async () => {
        await timed('workers polling', () =>
          clusterReady
            ? // The cluster's HTTP API asks for a client certificate too: asked over gRPC, as the services do.
              Promise.all([waitForWorker(config, 120_000, 'reviews'), waitForWorker(config, 120_000, 'analysis')])
            : Promise.all([
                waitFor('the worker', 120_000, () => workerPolls(o.ports.temporalHttp, config, 'reviews')),
                waitFor('the analysis worker', 120_000, () => workerPolls(o.ports.temporalHttp, config, 'analysis')),
              ]),
        );
        await timed('API ready', () => waitForApi(apiRoot));
      })(),
      // Its URL is printed with the others: it must answer too (the same process as Temporal; a cluster has none).
      clusterReady
        ? undefined
        : waitFor('Temporal UI', 60_000, () => httpOk(`http://127.0.0.1:${o.ports.temporalUi}/`)),
      (async () => {
        // Loaded once the servers answer: Temporal's protobufs cost the launcher some CPU.
        const [{ createCodecServer }, { PayloadEncryptionCodec }] = await Promise.all([
          import('../../src/temporal/codec-server.js'),
          import('../../src/temporal/payload-codec.js'),
        ]);
        const ui = o.ports.temporalUi;
        // On this host only, for the dev server's UI, which sends no credential (it has no setting for one).
        codecServer = createCodecServer(new PayloadEncryptionCodec(config.temporal.payloadKeys), {
          allowedOrigins: [`http://127.0.0.1:${ui}`, `http://localhost:${ui}`],
          allowedHosts: [`127.0.0.1:${o.ports.codec}`, `localhost:${o.ports.codec}`],
          encode: false,
        });
        await new Promise<void>((resolve, reject) =>
          codecServer!.once('error', reject).listen(o.ports.codec, '127.0.0.1', resolve),
        );
      })(),
    ]);

    return {
      supervisor,
      serviceEnv,
      apiServiceEnv,
      config,
      urls: {
        api: `${apiRoot}/v1`,
        temporalUi: `http://127.0.0.1:${o.ports.temporalUi}`,
        minioConsole: `http://127.0.0.1:${o.ports.minioConsole}`,
        codec: `http://127.0.0.1:${o.ports.codec}`,
      },
      worker,
      analysis,
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
  const [{ createSql }, { createApiKey }, { createOrganization, listOrganizations }] = await Promise.all([
    import('../../src/db/client.js'),
    import('../../src/db/keys.js'),
    import('../../src/db/organizations.js'),
  ]);
  const sql = createSql(config, { max: 1 });
  try {
    if ((await listOrganizations(sql)).length > 0) {
      if (!existsSync(keysFile)) return undefined;
      return JSON.parse(await readFile(keysFile, 'utf8')) as {
        organizationId: string;
        liveKey: string;
        sandboxKey: string;
      };
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
