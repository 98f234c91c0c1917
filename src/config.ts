// The service's configuration: every setting comes from the environment, is validated once here, and is
// passed down as a typed object. No other module reads process.env.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

const MiB = 1024 * 1024;

// Local development and tests run on these; production must set its own (checked below).
const DEV_SERVER_SECRET = 'dev-only-server-secret-change-me-in-production-0000';
/** MinIO's own default access key and secret. */
const DEV_MINIO_CREDENTIAL = 'minioadmin';
const DEV_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const DEV_TEMPORAL_PAYLOAD_KEY = Buffer.alloc(32, 9).toString('base64');

/** The share of traces kept when OTEL_TRACES_SAMPLER is unset (parent-based, by trace id). */
export const DEFAULT_TRACE_RATIO = 0.1;

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');
const httpUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
/** An AES-256 key, base64 encoded. */
const base64Key32 = (message: string) => z.string().refine((v) => Buffer.from(v, 'base64').length === 32, message);

/** A comma-separated list of values each `item` accepts (empty when unset). */
function commaList(item: z.ZodType<string, string>) {
  return z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x.length > 0),
    )
    .pipe(z.array(item))
    .default([]);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  // JSON lines for a log pipeline; `pretty` (short lines) is for a person at a terminal (the local stack).
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  // The operations port (src/telemetry/ops-server.ts): Prometheus metrics at /metrics and, on a worker,
  // its liveness and readiness. Off the public API's port, needing no key: it listens on this host only
  // unless OPS_HOST says otherwise (a scraper on another host or container). Unset port: 9464 for the API,
  // 9465 for a worker; 0: none.
  OPS_HOST: z.string().min(1).default('127.0.0.1'),
  OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // `off` leaves out the per-request and per-call instruments (the benchmarks' baseline); /metrics then
  // answers 404.
  METRICS: z.enum(['on', 'off']).default('on'),
  // Traces (src/telemetry/tracing.ts) are exported over OTLP/HTTP to this collector when set, and not made
  // at all otherwise. The exporter reads the other OTEL_EXPORTER_OTLP_* settings (headers, timeout) itself.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  // How OpenTelemetry's BatchSpanProcessor batches spans for it (src/telemetry/tracing.ts), under its names
  // and with its defaults but the delay: 2 s rather than 5 s, so a quiet service's spans are not kept back long.
  OTEL_BSP_SCHEDULE_DELAY: positiveInt.default(2_000),
  OTEL_BSP_MAX_QUEUE_SIZE: positiveInt.default(2_048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: positiveInt.default(512),
  OTEL_BSP_EXPORT_TIMEOUT: positiveInt.default(30_000),
  // Which traces are kept, under OpenTelemetry's names; `parentbased_*` follows a caller's traceparent where
  // there is one; `traceidratio` keeps the share of trace ids its argument gives (0 to 1; every one without
  // it, as OpenTelemetry takes it). Unset: parentbased_traceidratio at DEFAULT_TRACE_RATIO, what an operator
  // runs under load (tracing every request costs the API a share of its reads: bench:telemetry).
  OTEL_TRACES_SAMPLER: z
    .enum([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ])
    .optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),

  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8080),
  PUBLIC_BASE_URL: httpUrl.optional(),
  // Which proxies in front of the API are trusted to say who the client is (X-Forwarded-For), as Express's
  // "trust proxy": false (none: the address connecting is the client), a number of hops, or addresses and
  // subnets (comma-separated; loopback, linklocal, uniquelocal). Decides the address failures count for.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string =>
      v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v,
    ),
  // Requests with an unknown, revoked or expired key one client address may make a minute (per API
  // process) before it is refused 429 without its key being looked up.
  AUTH_FAILURES_PER_MINUTE: positiveInt.max(100_000).default(100),

  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://review@127.0.0.1:54320/review'),
  DATABASE_POOL_MAX: positiveInt.default(10),

  // Object storage: any S3-compatible store (AWS S3, MinIO, …); the MINIO_* names of each are accepted
  // too (STORAGE_ALIASES).
  S3_ENDPOINT: httpUrl.default('http://127.0.0.1:9000'),
  // Presigned report URLs must name the host integrators can reach, which is not always the internal one.
  S3_PUBLIC_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY: z.string().min(3).default(DEV_MINIO_CREDENTIAL),
  S3_SECRET_KEY: z.string().min(8).default(DEV_MINIO_CREDENTIAL),
  // The user that signs report links, when it is not S3_ACCESS_KEY: a link shows its access key id, so
  // a user allowed to read reports and nothing else (src/storage/service-users.ts).
  S3_PRESIGN_ACCESS_KEY: z.string().min(3).optional(),
  S3_PRESIGN_SECRET_KEY: z.string().min(8).optional(),
  // Setup only (npm run migrate, with the store's admin as S3_ACCESS_KEY): the secrets of the service's
  // own users to make or update, one per role; a role left unset is not touched.
  MINIO_API_SECRET_KEY: z.string().min(8).optional(),
  MINIO_WORKER_SECRET_KEY: z.string().min(8).optional(),
  MINIO_REPORTS_SECRET_KEY: z.string().min(8).optional(),
  // Path-style requests (https://host/bucket/key), which MinIO and most S3-compatible stores take, or
  // virtual-hosted (https://bucket.host/key); auto: virtual-hosted for AWS S3 endpoints, path-style else.
  S3_PATH_STYLE: z.enum(['auto', 'true', 'false']).default('auto'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('loan-review'),

  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('reviews'),
  // A secured cluster or Temporal Cloud (src/temporal/connection.ts): TLS, with the server's CA (PEM file)
  // when it is not a public one, a client certificate and key for mTLS, the name the server's certificate
  // carries when it is not the address's host, an API key (sent as authorization metadata, over TLS).
  TEMPORAL_TLS: flag,
  TEMPORAL_TLS_CA: z.string().min(1).optional(),
  TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  // Seals every payload handed to Temporal (src/temporal/payload-codec.ts); the keys it replaced, comma-
  // separated, still open what they sealed (docs/operations.md, "Rotating secrets").
  TEMPORAL_PAYLOAD_KEY: base64Key32('must be 32 bytes, base64 encoded').default(DEV_TEMPORAL_PAYLOAD_KEY),
  TEMPORAL_PAYLOAD_KEY_PREVIOUS: commaList(base64Key32('each must be 32 bytes, base64 encoded')),
  // The codec server the Temporal UI decodes payloads with (npm run codec-server): where it listens, and
  // the UI origins a browser may call it from.
  CODEC_SERVER_HOST: z.string().min(1).default('127.0.0.1'),
  CODEC_SERVER_PORT: port.default(8234),
  CODEC_SERVER_ALLOWED_ORIGINS: z
    .string()
    .default('http://127.0.0.1:8233,http://localhost:8233')
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x.length > 0),
    )
    .pipe(z.array(httpUrl)),
  // The `Host` values it answers (host:port as a browser sends it): a page that reaches it by another
  // name (DNS rebinding) is refused. Unset: 127.0.0.1 and localhost at CODEC_SERVER_PORT.
  CODEC_SERVER_ALLOWED_HOSTS: commaList(z.string().min(1)),
  // The bearer token every /decode and /encode must carry (`Authorization: Bearer …`): required in
  // production unless client certificates are (CODEC_SERVER_TLS_CLIENT_CA).
  CODEC_SERVER_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  // /encode seals whatever it is sent with the payload key: served only when `on`.
  CODEC_SERVER_ENCODE: z.enum(['on', 'off']).default('off'),
  // HTTPS, and with a client CA, mutual TLS: only clients with a certificate it signed are answered.
  CODEC_SERVER_TLS_CERT: z.string().min(1).optional(),
  CODEC_SERVER_TLS_KEY: z.string().min(1).optional(),
  CODEC_SERVER_TLS_CLIENT_CA: z.string().min(1).optional(),

  SERVER_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SERVER_SECRET),
  WEBHOOK_SECRET_KEY: base64Key32('must be 32 bytes, base64 encoded').default(DEV_WEBHOOK_SECRET_KEY),
  // Secrets these replaced, comma-separated: still accepted (cursors and working documents signed, webhook
  // secrets sealed before the rotation), never used for anything new (docs/operations.md, "Rotating secrets").
  SERVER_SECRET_PREVIOUS: commaList(z.string().min(32, 'each must be at least 32 characters')),
  WEBHOOK_SECRET_KEY_PREVIOUS: commaList(base64Key32('each must be 32 bytes, base64 encoded')),

  MAX_FILE_BYTES: positiveInt.default(100 * MiB),
  MAX_REVIEW_DOCUMENTS: positiveInt.default(300),
  MAX_REVIEW_BYTES: positiveInt.default(500 * MiB),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  // Webhook endpoints one organization may register in each mode: every event goes to each of them, so
  // endpoints without bound would make every create a fan-out of deliveries on the shared workers.
  MAX_WEBHOOK_ENDPOINTS: positiveInt.max(1_000).default(10),
  // Delivery attempts one organization makes to one host a second, across every worker
  // (src/db/webhook-host-pacing.ts): however many endpoints an organization names on a host, it never
  // floods it, and no organization's deliveries wait behind another's.
  WEBHOOK_HOST_DELIVERIES_PER_SECOND: positiveInt.max(1_000).default(10),
  // How long an API process trusts a key it looked up (0: look up every request). Changes to keys are
  // announced to every process at once; this bounds a missed announcement (docs/operations.md).
  API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(1),
  // Reviews of one organization analysed at once, across every worker (its fair share).
  MAX_CONCURRENT_ANALYSES: positiveInt.default(4),
  // Analyses and report renders one worker process runs at once, across organizations: an analysis keeps
  // a core busy, and more than the cores at once only make each one, and every create, wait longer.
  WORKER_ANALYSES: positiveInt.max(64).default(availableParallelism()),
  // Submissions one worker process ingests at once (fetching, unpacking and checking untrusted files, on the
  // ingest queue): each holds some streams and at most one parser thread, so this bounds both.
  WORKER_INGESTS: positiveInt.max(64).default(16),
  // Workflow tasks one worker process runs at once (each mostly waits on a short database write).
  WORKER_WORKFLOW_TASKS: positiveInt.max(2_000).default(200),
  // Threads running workflow code in one worker process. Each call into a workflow's sandbox (several per
  // activation) starts and joins a watchdog thread of Node's (the SDK's execution timeout): on a busy
  // machine a join waits for the scheduler, and one thread spends that waiting where four overlap it.
  WORKER_WORKFLOW_THREADS: positiveInt.max(16).default(4),
  // Which task queues this worker process polls (src/temporal/task-queues.ts): `reviews` (workflows,
  // read-model writes, webhooks, and the ingest queue beside it), `analysis` (analyses and renders), or
  // both. A process that polls only `analysis` lowers its own scheduling priority
  // (src/runtime/background-priority.ts).
  WORKER_QUEUES: z
    .string()
    .default('reviews,analysis')
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((q) => q.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.enum(['reviews', 'analysis'])).min(1)),
  AWAITING_DOCUMENTS_DAYS: positiveInt.default(7),
  IDEMPOTENCY_TTL_HOURS: positiveInt.default(24),
  // Signed source URLs (decisions.md, "Signed source URLs"): the longest a source's server may send nothing
  // (to connect and answer, and between bytes), and the longest a submission's sources may take together,
  // which the ingest activity's 15 minutes must leave room for (workflows/activity-options.ts).
  SOURCE_FETCH_IDLE_MS: positiveInt.max(300_000).default(30_000),
  SOURCE_FETCH_TOTAL_MS: positiveInt.max(600_000).default(600_000),
  // Tesseract workers reading scanned pages at once, a core and about 150 MB each. Two on a two-core
  // machine read a multi-page scan 1.9 times as fast as one; more than the cores only adds memory.
  OCR_WORKERS: positiveInt.max(8).default(Math.min(2, availableParallelism())),
  // Which tesseract reads scans (src/qc/reading/ocr.ts): `auto` is native tesseract where installed (about
  // twice as fast on the same page and core), else tesseract.js; `native` or `tesseract.js` force one.
  OCR_ENGINE: z.enum(['auto', 'native', 'tesseract.js']).default('auto'),

  // The local stack (npm start, npm test) launches the worker beside its servers, so that loading the
  // worker's code overlaps their start; the worker then connects as soon as Temporal answers (trying
  // again until it does) but polls only once its standard input closes, which the stack does when the
  // servers answer, migrated, with their bucket and search attributes.
  WORKER_POLL_AFTER_STDIN_CLOSES: flag,

  // Off in every real deployment: lets tests aim webhooks and source URLs at servers on this machine.
  TEST_ONLY_ALLOW_LOOPBACK_TARGETS: flag,
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'test' | 'production';
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  telemetry: {
    logFormat: 'json' | 'pretty';
    /** Where the operations server listens; `port` unset: the process's default. */
    ops: { host: string; port?: number };
    metrics: boolean;
    otlpEndpoint?: string;
    /** Milliseconds and span counts; a batch no larger than the queue. */
    spanBatches: {
      scheduledDelayMillis: number;
      maxQueueSize: number;
      maxExportBatchSize: number;
      exportTimeoutMillis: number;
    };
    /** OTEL_TRACES_SAMPLER: which traces are kept; `ratio` for the trace-id ratio samplers alone. */
    sampler: {
      root: 'always_on' | 'always_off' | 'traceidratio';
      /** A caller's sampled flag decides, where a request carries one. */
      parentBased: boolean;
      ratio: number;
    };
  };
  http: { host: string; port: number; publicBaseUrl: string; trustProxy: boolean | number | string };
  database: {
    url: string;
    poolMax: number;
    /**
     * TLS as DATABASE_URL's `sslmode` asks (libpq's meanings), with the files its `sslrootcert`,
     * `sslcert` and `sslkey` name, read at start: postgres.js itself reads neither.
     */
    tls?: { mode: 'require' | 'verify-ca' | 'verify-full'; ca?: Buffer; cert?: Buffer; key?: Buffer };
  };
  minio: {
    endpoint: URL;
    publicEndpoint: URL;
    region: string;
    accessKey: string;
    secretKey: string;
    bucket: string;
    /** Virtual-hosted requests (bucket in the host name) where the store wants them; path-style else. */
    virtualHosted: boolean;
    /** Who signs report links, when not the credentials above. */
    presign?: { accessKey: string; secretKey: string };
    /** Setup: the service users to make, by role. */
    provision: { api?: string; worker?: string; reports?: string };
  };
  temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    /** Seals payloads: the current key first, then the keys it replaced. */
    payloadKeys: Buffer[];
    /** TLS to the frontend, when on: PEM contents read at start, not paths. */
    tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer; serverName?: string };
    apiKey?: string;
    codecServer: {
      host: string;
      port: number;
      allowedOrigins: string[];
      allowedHosts: string[];
      token?: string;
      encode: boolean;
      /** Files: the server's certificate and key, and the CA client certificates must be signed by. */
      tls?: { certFile: string; keyFile: string; clientCaFile?: string };
    };
  };
  secrets: {
    /** Signs listing cursors and working documents. */
    server: string;
    /** What is accepted as signed by us: `server` first, then the secrets it replaced. */
    serverAccepted: string[];
    /** Seals webhook signing secrets at rest. */
    webhookKey: Buffer;
    /** What sealed secrets are opened with: `webhookKey` first, then the keys it replaced. */
    webhookKeysAccepted: Buffer[];
  };
  limits: {
    maxFileBytes: number;
    maxReviewDocuments: number;
    maxReviewBytes: number;
    rateLimitPerMinute: number;
    /** Webhook endpoints per organization and mode. */
    maxWebhookEndpoints: number;
    webhookHostDeliveriesPerSecond: number;
    /** Failed authentications one client address may make a minute, per API process. */
    authFailuresPerMinute: number;
    /** How long a looked-up key is trusted without looking it up again, in milliseconds. */
    apiKeyCacheMs: number;
    maxConcurrentAnalyses: number;
    awaitingDocumentsDays: number;
    idempotencyTtlHours: number;
    sourceFetchIdleMs: number;
    sourceFetchTotalMs: number;
  };
  qc: { ocrWorkers: number; ocrEngine: 'auto' | 'native' | 'tesseract.js' };
  worker: {
    pollAfterStdinCloses: boolean;
    analyses: number;
    ingests: number;
    workflowTasks: number;
    workflowThreads: number;
    queues: WorkerQueue[];
  };
  testOnlyAllowLoopbackTargets: boolean;
}

/** A task queue a worker process may poll (src/temporal/task-queues.ts). */
export type WorkerQueue = 'reviews' | 'analysis';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment into a Config; throws ConfigError naming every invalid variable. */
/** A URL on this machine's loopback (or every interface of it). */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host === '0.0.0.0' || /^127\./.test(host);
}

/** The modes of libpq's `sslmode` that mean TLS; `disable`, `allow` and `prefer` are postgres.js's own. */
const DATABASE_TLS_MODES = ['require', 'verify-ca', 'verify-full'] as const;

/**
 * TLS to PostgreSQL from DATABASE_URL's libpq parameters (`sslmode=verify-full&sslrootcert=/etc/ca.pem`,
 * as managed databases document them): the files are read here, once, and named when they cannot be.
 */
function databaseTls(url: string): { tls?: NonNullable<Config['database']['tls']> } {
  const params = new URL(url).searchParams;
  const mode = params.get('sslmode');
  const files = { ca: params.get('sslrootcert'), cert: params.get('sslcert'), key: params.get('sslkey') };
  if (!mode || !(DATABASE_TLS_MODES as readonly string[]).includes(mode)) {
    if (files.ca || files.cert || files.key)
      throw new ConfigError(
        'Invalid configuration:\n  DATABASE_URL: sslrootcert, sslcert and sslkey need ' +
          'sslmode=require, verify-ca or verify-full',
      );
    return {};
  }
  const read = (name: string, path: string | null): Buffer | undefined => {
    // libpq's "system": the machine's own roots, which Node uses when no CA is given.
    if (!path || path === 'system') return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new ConfigError(
        `Invalid configuration:\n  DATABASE_URL: ${name}: cannot read ${path} ` +
          `(${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  };
  const ca = read('sslrootcert', files.ca);
  const cert = read('sslcert', files.cert);
  const key = read('sslkey', files.key);
  return {
    tls: {
      mode: mode as (typeof DATABASE_TLS_MODES)[number],
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
    },
  };
}

/**
 * TLS to Temporal: on when asked for, or implied by any of its files or by an API key (Temporal Cloud
 * takes API keys over TLS only). Files are read here, once: a path that cannot be read is a configuration
 * error at start, named, not a handshake failure later.
 */
function temporalTls(e: z.infer<typeof envSchema>): { tls?: NonNullable<Config['temporal']['tls']> } {
  const on =
    e.TEMPORAL_TLS ||
    e.TEMPORAL_TLS_CA ||
    e.TEMPORAL_TLS_CERT ||
    e.TEMPORAL_TLS_KEY ||
    e.TEMPORAL_TLS_SERVER_NAME ||
    e.TEMPORAL_API_KEY;
  if (!on) return {};
  const problems: string[] = [];
  if (Boolean(e.TEMPORAL_TLS_CERT) !== Boolean(e.TEMPORAL_TLS_KEY))
    problems.push(
      '  TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY: a client certificate needs its key, and a key its certificate',
    );
  const read = (name: 'TEMPORAL_TLS_CA' | 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY'): Buffer | undefined => {
    const path = e[name];
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      problems.push(
        `  ${name}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
      return undefined;
    }
  };
  const ca = read('TEMPORAL_TLS_CA');
  const cert = read('TEMPORAL_TLS_CERT');
  const key = read('TEMPORAL_TLS_KEY');
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    tls: {
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(e.TEMPORAL_TLS_SERVER_NAME ? { serverName: e.TEMPORAL_TLS_SERVER_NAME } : {}),
    },
  };
}

/** Every variable the service reads by its own name (docs/operations.md's table names each once). */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The object-storage settings' older names, taken when the S3_* name is not given. */
const STORAGE_ALIASES = [
  'ENDPOINT',
  'PUBLIC_ENDPOINT',
  'REGION',
  'ACCESS_KEY',
  'SECRET_KEY',
  'BUCKET',
  'PRESIGN_ACCESS_KEY',
  'PRESIGN_SECRET_KEY',
].map((n) => [`S3_${n}`, `MINIO_${n}`] as const);

/** The older names of the object-storage settings. */
export const STORAGE_ALIAS_VARIABLES: readonly string[] = STORAGE_ALIASES.map(([, alias]) => alias);

/** The environment with each MINIO_* name read as its S3_* one; both given and different is an error. */
function withStorageAliases(source: Record<string, string | undefined>): Record<string, string | undefined> {
  const given = (v: string | undefined) => v !== undefined && v !== '';
  const out = { ...source };
  const clashes: string[] = [];
  for (const [name, alias] of STORAGE_ALIASES) {
    if (!given(source[alias])) continue;
    if (!given(source[name])) out[name] = source[alias];
    else if (source[name] !== source[alias]) clashes.push(`  ${name}, ${alias}: the same setting, given two values`);
  }
  if (clashes.length > 0) throw new ConfigError(`Invalid configuration:\n${clashes.join('\n')}`);
  return out;
}

export function loadConfig(given: Record<string, string | undefined> = process.env): Config {
  const source = withStorageAliases(given);
  // Empty strings mean "unset" so that `FOO= npm start` falls back to the default.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([k, v]) => k in envSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // The codec server's TLS comes whole: a certificate with its key, and client certificates only over it.
  if (
    Boolean(e.CODEC_SERVER_TLS_CERT) !== Boolean(e.CODEC_SERVER_TLS_KEY) ||
    (e.CODEC_SERVER_TLS_CLIENT_CA && !e.CODEC_SERVER_TLS_CERT)
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  CODEC_SERVER_TLS_CERT, CODEC_SERVER_TLS_KEY: both or neither; ' +
        'CODEC_SERVER_TLS_CLIENT_CA needs them',
    );
  }
  if (e.NODE_ENV === 'production') {
    const unsafe = [
      e.SERVER_SECRET === DEV_SERVER_SECRET && 'SERVER_SECRET',
      e.WEBHOOK_SECRET_KEY === DEV_WEBHOOK_SECRET_KEY && 'WEBHOOK_SECRET_KEY',
      e.TEMPORAL_PAYLOAD_KEY === DEV_TEMPORAL_PAYLOAD_KEY && 'TEMPORAL_PAYLOAD_KEY',
      e.TEST_ONLY_ALLOW_LOOPBACK_TARGETS && 'TEST_ONLY_ALLOW_LOOPBACK_TARGETS',
      // MinIO's well-known default credentials: anyone who reads this README could use them.
      e.S3_ACCESS_KEY === DEV_MINIO_CREDENTIAL && 'S3_ACCESS_KEY',
      e.S3_SECRET_KEY === DEV_MINIO_CREDENTIAL && 'S3_SECRET_KEY',
    ].filter(Boolean);
    // A development key among the ones still accepted would open (or forge) what anyone could seal with it.
    const devPrevious = [
      e.SERVER_SECRET_PREVIOUS.includes(DEV_SERVER_SECRET) && 'SERVER_SECRET_PREVIOUS',
      e.WEBHOOK_SECRET_KEY_PREVIOUS.includes(DEV_WEBHOOK_SECRET_KEY) && 'WEBHOOK_SECRET_KEY_PREVIOUS',
      e.TEMPORAL_PAYLOAD_KEY_PREVIOUS.includes(DEV_TEMPORAL_PAYLOAD_KEY) && 'TEMPORAL_PAYLOAD_KEY_PREVIOUS',
    ].filter(Boolean);
    // What callers are given (the API's address, presigned report URLs, which are the store's public
    // endpoint or else its own) is an address they can reach, over TLS: neither plain http:// nor this
    // machine (a link to localhost reaches the integrator's own machine).
    const given = {
      PUBLIC_BASE_URL: e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}/v1`,
      S3_PUBLIC_ENDPOINT: e.S3_PUBLIC_ENDPOINT ?? e.S3_ENDPOINT,
    };
    const unreachable = Object.entries(given).flatMap(([n, value]) => (isLoopback(new URL(value)) ? [n] : []));
    const plain = Object.entries(given).flatMap(([n, value]) =>
      !unreachable.includes(n) && new URL(value).protocol === 'http:' ? [n] : [],
    );
    const problems = [
      ...unsafe.map((n) => `  ${n}: must be set to a production value when NODE_ENV=production`),
      ...devPrevious.map((n) => `  ${n}: must not list the development value when NODE_ENV=production`),
      ...unreachable.map(
        (n) =>
          `  ${n}: must be the https:// address callers reach, not this machine (localhost), when NODE_ENV=production`,
      ),
      ...plain.map((n) => `  ${n}: must be an https:// URL when NODE_ENV=production`),
    ];
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const minioEndpoint = new URL(e.S3_ENDPOINT);
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    telemetry: {
      logFormat: e.LOG_FORMAT,
      ops: { host: e.OPS_HOST, ...(e.OPS_PORT === undefined ? {} : { port: e.OPS_PORT }) },
      metrics: e.METRICS === 'on',
      ...(e.OTEL_EXPORTER_OTLP_ENDPOINT ? { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
      spanBatches: {
        scheduledDelayMillis: e.OTEL_BSP_SCHEDULE_DELAY,
        maxQueueSize: e.OTEL_BSP_MAX_QUEUE_SIZE,
        // As OpenTelemetry's batch processor takes it: a batch larger than the queue is the queue.
        maxExportBatchSize: Math.min(e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, e.OTEL_BSP_MAX_QUEUE_SIZE),
        exportTimeoutMillis: e.OTEL_BSP_EXPORT_TIMEOUT,
      },
      sampler: {
        root: (e.OTEL_TRACES_SAMPLER ?? 'traceidratio').replace(
          /^parentbased_/,
          '',
        ) as Config['telemetry']['sampler']['root'],
        parentBased: e.OTEL_TRACES_SAMPLER?.startsWith('parentbased_') ?? true,
        ratio: e.OTEL_TRACES_SAMPLER_ARG ?? (e.OTEL_TRACES_SAMPLER ? 1 : DEFAULT_TRACE_RATIO),
      },
    },
    http: {
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}/v1`,
      trustProxy: e.TRUST_PROXY,
    },
    database: { url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX, ...databaseTls(e.DATABASE_URL) },
    minio: {
      endpoint: minioEndpoint,
      publicEndpoint: e.S3_PUBLIC_ENDPOINT ? new URL(e.S3_PUBLIC_ENDPOINT) : minioEndpoint,
      region: e.S3_REGION,
      accessKey: e.S3_ACCESS_KEY,
      secretKey: e.S3_SECRET_KEY,
      bucket: e.S3_BUCKET,
      virtualHosted: e.S3_PATH_STYLE === 'false',
      ...(e.S3_PRESIGN_ACCESS_KEY && e.S3_PRESIGN_SECRET_KEY
        ? { presign: { accessKey: e.S3_PRESIGN_ACCESS_KEY, secretKey: e.S3_PRESIGN_SECRET_KEY } }
        : {}),
      provision: {
        ...(e.MINIO_API_SECRET_KEY ? { api: e.MINIO_API_SECRET_KEY } : {}),
        ...(e.MINIO_WORKER_SECRET_KEY ? { worker: e.MINIO_WORKER_SECRET_KEY } : {}),
        ...(e.MINIO_REPORTS_SECRET_KEY ? { reports: e.MINIO_REPORTS_SECRET_KEY } : {}),
      },
    },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      payloadKeys: [e.TEMPORAL_PAYLOAD_KEY, ...e.TEMPORAL_PAYLOAD_KEY_PREVIOUS].map((k) => Buffer.from(k, 'base64')),
      ...temporalTls(e),
      ...(e.TEMPORAL_API_KEY ? { apiKey: e.TEMPORAL_API_KEY } : {}),
      codecServer: {
        host: e.CODEC_SERVER_HOST,
        port: e.CODEC_SERVER_PORT,
        allowedOrigins: e.CODEC_SERVER_ALLOWED_ORIGINS,
        allowedHosts:
          e.CODEC_SERVER_ALLOWED_HOSTS.length > 0
            ? e.CODEC_SERVER_ALLOWED_HOSTS
            : [`127.0.0.1:${e.CODEC_SERVER_PORT}`, `localhost:${e.CODEC_SERVER_PORT}`],
        ...(e.CODEC_SERVER_TOKEN ? { token: e.CODEC_SERVER_TOKEN } : {}),
        encode: e.CODEC_SERVER_ENCODE === 'on',
        ...(e.CODEC_SERVER_TLS_CERT && e.CODEC_SERVER_TLS_KEY
          ? {
              tls: {
                certFile: e.CODEC_SERVER_TLS_CERT,
                keyFile: e.CODEC_SERVER_TLS_KEY,
                ...(e.CODEC_SERVER_TLS_CLIENT_CA ? { clientCaFile: e.CODEC_SERVER_TLS_CLIENT_CA } : {}),
              },
            }
          : {}),
      },
    },
    secrets: {
      server: e.SERVER_SECRET,
      serverAccepted: [e.SERVER_SECRET, ...e.SERVER_SECRET_PREVIOUS],
      webhookKey: Buffer.from(e.WEBHOOK_SECRET_KEY, 'base64'),
      webhookKeysAccepted: [e.WEBHOOK_SECRET_KEY, ...e.WEBHOOK_SECRET_KEY_PREVIOUS].map((k) =>
        Buffer.from(k, 'base64'),
      ),
    },
    limits: {
      maxFileBytes: e.MAX_FILE_BYTES,
      maxReviewDocuments: e.MAX_REVIEW_DOCUMENTS,
      maxReviewBytes: e.MAX_REVIEW_BYTES,
      rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      maxWebhookEndpoints: e.MAX_WEBHOOK_ENDPOINTS,
      webhookHostDeliveriesPerSecond: e.WEBHOOK_HOST_DELIVERIES_PER_SECOND,
      authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
      apiKeyCacheMs: e.API_KEY_CACHE_SECONDS * 1000,
      maxConcurrentAnalyses: e.MAX_CONCURRENT_ANALYSES,
      awaitingDocumentsDays: e.AWAITING_DOCUMENTS_DAYS,
      idempotencyTtlHours: e.IDEMPOTENCY_TTL_HOURS,
      sourceFetchIdleMs: e.SOURCE_FETCH_IDLE_MS,
      sourceFetchTotalMs: e.SOURCE_FETCH_TOTAL_MS,
    },
    qc: { ocrWorkers: e.OCR_WORKERS, ocrEngine: e.OCR_ENGINE },
    worker: {
      pollAfterStdinCloses: e.WORKER_POLL_AFTER_STDIN_CLOSES,
      analyses: e.WORKER_ANALYSES,
      ingests: e.WORKER_INGESTS,
      workflowTasks: e.WORKER_WORKFLOW_TASKS,
      workflowThreads: e.WORKER_WORKFLOW_THREADS,
      queues: e.WORKER_QUEUES,
    },
    testOnlyAllowLoopbackTargets: e.TEST_ONLY_ALLOW_LOOPBACK_TARGETS,
  };
}

/** For process entry points: load the config or print the problem and exit 1 (no stack trace). */
/**
 * The configuration of a service (the API, a worker): as loadConfigOrExit, and NODE_ENV must be said. A
 * service that took an unset NODE_ENV for development would run a deployment with the public development
 * secrets; the local stack says development, the image production, the tests test.
 */
export function loadServiceConfigOrExit(source: Record<string, string | undefined> = process.env): Config {
  if (!source.NODE_ENV) {
    console.error(
      'Invalid configuration:\n  NODE_ENV: must be set: production for a deployment, development or test otherwise',
    );
    process.exit(1);
  }
  return loadConfigOrExit(source);
}

export function loadConfigOrExit(source: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(source);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
