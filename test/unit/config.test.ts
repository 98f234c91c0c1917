// Configuration is read from the environment once, validated, and explains itself when wrong.
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, ENVIRONMENT_VARIABLES, loadConfig, STORAGE_ALIAS_VARIABLES } from '../../src/config.js';
import { describeTemporalConnection, temporalConnectionOptions } from '../../src/temporal/connection.js';

test('defaults give a working local configuration', (t) => {
  const c = loadConfig({});
  t.is(c.http.port, 8080);
  t.is(c.temporal.taskQueue, 'reviews');
  t.is(c.limits.maxFileBytes, 100 * 1024 * 1024);
  t.is(c.limits.rateLimitPerMinute, 60);
  t.is(c.secrets.webhookKey.length, 32);
  t.false(c.testOnlyAllowLoopbackTargets);
  t.is(c.minio.publicEndpoint.href, c.minio.endpoint.href);
});

test('values from the environment are parsed and typed', (t) => {
  const c = loadConfig({
    PORT: '9999',
    MAX_FILE_BYTES: '1024',
    TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'true',
    S3_PUBLIC_ENDPOINT: 'https://files.example.com/',
  });
  t.is(c.http.port, 9999);
  t.is(c.limits.maxFileBytes, 1024);
  t.true(c.testOnlyAllowLoopbackTargets);
  t.is(c.minio.publicEndpoint.host, 'files.example.com');
});

test('an invalid variable is named in the error', (t) => {
  const err = t.throws(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' }), { instanceOf: ConfigError });
  t.regex(err!.message, /PORT/);
  t.regex(err!.message, /DATABASE_URL: must be a postgres:\/\/ URL/);
});

test("production refuses the development secrets, MinIO's default credentials and the test-only switch", (t) => {
  const err = t.throws(() => loadConfig({ NODE_ENV: 'production', TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'true' }), {
    instanceOf: ConfigError,
  });
  t.regex(err!.message, /SERVER_SECRET/);
  t.regex(err!.message, /WEBHOOK_SECRET_KEY/);
  t.regex(err!.message, /TEMPORAL_PAYLOAD_KEY: must be set to a production value/);
  t.regex(err!.message, /TEST_ONLY_ALLOW_LOOPBACK_TARGETS/);
  t.regex(err!.message, /S3_ACCESS_KEY: must be set to a production value/);
  t.regex(err!.message, /S3_SECRET_KEY: must be set to a production value/);
  t.notThrows(() => loadConfig(production()));
});

test('production refuses a development secret among the ones still accepted after a rotation', (t) => {
  // The development values (src/config.ts), each listed beside a key of the deployment's own.
  const err = t.throws(
    () =>
      loadConfig(
        production({
          SERVER_SECRET_PREVIOUS: `${'y'.repeat(40)},dev-only-server-secret-change-me-in-production-0000`,
          WEBHOOK_SECRET_KEY_PREVIOUS: Buffer.alloc(32, 7).toString('base64'),
          TEMPORAL_PAYLOAD_KEY_PREVIOUS: [3, 9].map((b) => Buffer.alloc(32, b).toString('base64')).join(','),
        }),
      ),
    { instanceOf: ConfigError },
  );
  t.regex(err!.message, /SERVER_SECRET_PREVIOUS: must not list the development value/);
  t.regex(err!.message, /WEBHOOK_SECRET_KEY_PREVIOUS: must not list the development value/);
  t.regex(err!.message, /TEMPORAL_PAYLOAD_KEY_PREVIOUS: must not list the development value/);
  t.notThrows(() => loadConfig(production({ TEMPORAL_PAYLOAD_KEY_PREVIOUS: Buffer.alloc(32, 3).toString('base64') })));
});

/** A production configuration with its own secrets and credentials, and `extra` over it. */
const production = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  SERVER_SECRET: 'x'.repeat(40),
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
  TEMPORAL_PAYLOAD_KEY: Buffer.alloc(32, 2).toString('base64'),
  S3_ACCESS_KEY: 'loan-review-service',
  S3_SECRET_KEY: 'a-secret-of-its-own',
  PUBLIC_BASE_URL: 'https://reviews.example.com/v1',
  S3_ENDPOINT: 'http://minio:9000',
  S3_PUBLIC_ENDPOINT: 'https://files.example.com',
  ...extra,
});

test('production gives callers https:// addresses they can reach: not plain http://, not this machine', (t) => {
  const err = t.throws(
    () =>
      loadConfig(
        production({
          PUBLIC_BASE_URL: 'http://reviews.example.com/v1',
          S3_PUBLIC_ENDPOINT: 'http://files.example.com',
        }),
      ),
    {
      instanceOf: ConfigError,
    },
  );
  t.regex(err!.message, /PUBLIC_BASE_URL: must be an https:\/\/ URL/);
  t.regex(err!.message, /S3_PUBLIC_ENDPOINT: must be an https:\/\/ URL/);
  // Without a public endpoint, report links are the store's own address: judged the same.
  const { S3_PUBLIC_ENDPOINT: _unset, ...withoutPublic } = production();
  const internal = t.throws(() => loadConfig(withoutPublic), { instanceOf: ConfigError });
  t.regex(internal!.message, /S3_PUBLIC_ENDPOINT: must be an https:\/\/ URL/);
  // A link to localhost reaches the integrator's own machine: refused, https or not, and so is no base URL.
  const local = t.throws(
    () =>
      loadConfig(
        production({ PUBLIC_BASE_URL: 'https://localhost:8080/v1', S3_PUBLIC_ENDPOINT: 'http://127.0.0.1:9000' }),
      ),
    { instanceOf: ConfigError },
  );
  t.regex(local!.message, /PUBLIC_BASE_URL: must be the https:\/\/ address callers reach, not this machine/);
  t.regex(local!.message, /S3_PUBLIC_ENDPOINT: must be the https:\/\/ address callers reach, not this machine/);
  const { PUBLIC_BASE_URL: _none, ...withoutBase } = production();
  t.regex(
    t.throws(() => loadConfig(withoutBase))!.message,
    /PUBLIC_BASE_URL: must be the https:\/\/ address callers reach/,
  );
  t.notThrows(() => loadConfig(production()));
  // Development takes whatever it is given.
  t.notThrows(() =>
    loadConfig({ PUBLIC_BASE_URL: 'http://reviews.example.com/v1', S3_PUBLIC_ENDPOINT: 'http://files.example.com' }),
  );
});

test(
  'object storage is configured by S3_* names; the MINIO_* ones are the same settings, and both ' + 'given must agree',
  (t) => {
    const c = loadConfig({
      MINIO_ENDPOINT: 'http://store:9000',
      MINIO_BUCKET: 'loans',
      S3_REGION: 'eu-west-1',
      S3_PATH_STYLE: 'false',
    });
    t.is(c.minio.endpoint.host, 'store:9000');
    t.is(c.minio.bucket, 'loans');
    t.is(c.minio.region, 'eu-west-1');
    t.true(c.minio.virtualHosted);
    t.false(loadConfig({}).minio.virtualHosted);
    t.notThrows(() => loadConfig({ S3_BUCKET: 'loans', MINIO_BUCKET: 'loans' }));
    const clash = t.throws(() => loadConfig({ S3_BUCKET: 'loans', MINIO_BUCKET: 'other' }), {
      instanceOf: ConfigError,
    });
    t.regex(clash!.message, /S3_BUCKET, MINIO_BUCKET: the same setting, given two values/);
  },
);

test('secrets replaced by a rotation are accepted after the current one; each is checked like it', (t) => {
  const current = Buffer.alloc(32, 1).toString('base64');
  const older = [Buffer.alloc(32, 2).toString('base64'), Buffer.alloc(32, 3).toString('base64')];
  const c = loadConfig({
    SERVER_SECRET: 'n'.repeat(40),
    SERVER_SECRET_PREVIOUS: `${'o'.repeat(40)}, ${'p'.repeat(40)}`,
    WEBHOOK_SECRET_KEY: current,
    WEBHOOK_SECRET_KEY_PREVIOUS: older.join(','),
    TEMPORAL_PAYLOAD_KEY: current,
    TEMPORAL_PAYLOAD_KEY_PREVIOUS: older.join(','),
  });
  t.deepEqual(c.secrets.serverAccepted, ['n'.repeat(40), 'o'.repeat(40), 'p'.repeat(40)]);
  t.is(c.secrets.server, 'n'.repeat(40));
  t.deepEqual(
    c.secrets.webhookKeysAccepted.map((k) => k.toString('base64')),
    [current, ...older],
  );
  t.deepEqual(
    c.temporal.payloadKeys.map((k) => k.toString('base64')),
    [current, ...older],
  );
  t.deepEqual(loadConfig({}).secrets.serverAccepted, [loadConfig({}).secrets.server]);
  const err = t.throws(
    () =>
      loadConfig({
        SERVER_SECRET_PREVIOUS: 'short',
        WEBHOOK_SECRET_KEY_PREVIOUS: 'AAAA',
        TEMPORAL_PAYLOAD_KEY_PREVIOUS: 'AAAA',
      }),
    { instanceOf: ConfigError },
  );
  t.regex(err!.message, /SERVER_SECRET_PREVIOUS.*at least 32 characters/);
  t.regex(err!.message, /WEBHOOK_SECRET_KEY_PREVIOUS.*32 bytes/);
  t.regex(err!.message, /TEMPORAL_PAYLOAD_KEY_PREVIOUS.*32 bytes/);
});

test('a webhook key that is not 32 bytes is rejected', (t) => {
  const err = t.throws(() => loadConfig({ WEBHOOK_SECRET_KEY: Buffer.alloc(16).toString('base64') }));
  t.regex(err!.message, /WEBHOOK_SECRET_KEY: must be 32 bytes/);
});

test('OCR workers default to two, or one on a single core, and take 1 to 8', (t) => {
  t.is(loadConfig({}).qc.ocrWorkers, Math.min(2, availableParallelism()));
  t.is(loadConfig({ OCR_WORKERS: '4' }).qc.ocrWorkers, 4);
  for (const bad of ['0', '9', '1.5', 'two']) {
    const err = t.throws(() => loadConfig({ OCR_WORKERS: bad }), { instanceOf: ConfigError }, bad);
    t.regex(err!.message, /OCR_WORKERS/);
  }
});

test(
  'the OCR engine is auto by default (native tesseract where installed), may be auto, native or ' +
    'tesseract.js, and takes nothing else',
  (t) => {
    t.is(loadConfig({}).qc.ocrEngine, 'auto');
    t.is(loadConfig({ OCR_ENGINE: 'auto' }).qc.ocrEngine, 'auto');
    t.is(loadConfig({ OCR_ENGINE: 'native' }).qc.ocrEngine, 'native');
    t.is(loadConfig({ OCR_ENGINE: 'tesseract.js' }).qc.ocrEngine, 'tesseract.js');
    const err = t.throws(() => loadConfig({ OCR_ENGINE: 'tesseract' }), { instanceOf: ConfigError });
    t.regex(err!.message, /OCR_ENGINE/);
  },
);

test('a worker runs workflow code on 4 threads unless told otherwise, from 1 to 16', (t) => {
  t.is(loadConfig({}).worker.workflowThreads, 4);
  t.is(loadConfig({ WORKER_WORKFLOW_THREADS: '1' }).worker.workflowThreads, 1);
  for (const bad of ['0', '17', 'two'])
    t.throws(() => loadConfig({ WORKER_WORKFLOW_THREADS: bad }), {
      instanceOf: ConfigError,
      message: /WORKER_WORKFLOW_THREADS/,
    });
});

test('the API and the worker refuse to start without NODE_ENV, naming it', async (t) => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const entry of ['api/server.ts', 'worker/main.ts']) {
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', entry], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code?: number; stderr?: string }) => ({ code: err.code, stderr: err.stderr ?? '' }),
    );
    t.is(run.code, 1, entry);
    t.regex(run.stderr, /NODE_ENV: must be set/, entry);
  }
});

test(
  'Temporal over TLS: files are read at start and named when they cannot be; a certificate needs ' +
    'its key; an API key means TLS',
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
    writeFileSync(join(dir, 'ca.pem'), 'CA PEM');
    writeFileSync(join(dir, 'client.pem'), 'CERT PEM');
    writeFileSync(join(dir, 'client.key'), 'KEY PEM');
    const mtls = loadConfig({
      TEMPORAL_TLS_CA: join(dir, 'ca.pem'),
      TEMPORAL_TLS_CERT: join(dir, 'client.pem'),
      TEMPORAL_TLS_KEY: join(dir, 'client.key'),
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    t.is(mtls.temporal.tls?.ca?.toString(), 'CA PEM');
    t.deepEqual(temporalConnectionOptions(mtls), {
      address: '127.0.0.1:7233',
      tls: {
        serverNameOverride: 'temporal.internal',
        serverRootCACertificate: Buffer.from('CA PEM'),
        clientCertPair: { crt: Buffer.from('CERT PEM'), key: Buffer.from('KEY PEM') },
      },
    });
    t.regex(describeTemporalConnection(mtls), /^127\.0\.0\.1:7233 \(namespace default, mTLS\)$/);

    // Temporal Cloud with an API key: TLS with the system's roots.
    const cloud = loadConfig({ TEMPORAL_ADDRESS: 'loans.a1b2c.tmprl.cloud:7233', TEMPORAL_API_KEY: 'key-123' });
    t.deepEqual(temporalConnectionOptions(cloud), {
      address: 'loans.a1b2c.tmprl.cloud:7233',
      tls: true,
      apiKey: 'key-123',
    });
    t.regex(describeTemporalConnection(cloud), /TLS \+ API key/);
    // Nothing asked: plaintext, as the local stack's dev server.
    t.deepEqual(temporalConnectionOptions(loadConfig({})), { address: '127.0.0.1:7233' });

    const missing = t.throws(() => loadConfig({ TEMPORAL_TLS_CA: join(dir, 'nope.pem') }), { instanceOf: ConfigError });
    t.regex(missing!.message, /TEMPORAL_TLS_CA: cannot read .*nope\.pem \(ENOENT\)/);
    const half = t.throws(() => loadConfig({ TEMPORAL_TLS_CERT: join(dir, 'client.pem') }), {
      instanceOf: ConfigError,
    });
    t.regex(half!.message, /a client certificate needs its key/);
    rmSync(dir, { recursive: true });
  },
);

test("spans are batched as OpenTelemetry's OTEL_BSP_* say, with a 2-second delay unless told otherwise", (t) => {
  t.deepEqual(loadConfig({}).telemetry.spanBatches, {
    scheduledDelayMillis: 2_000,
    maxQueueSize: 2_048,
    maxExportBatchSize: 512,
    exportTimeoutMillis: 30_000,
  });
  const told = loadConfig({
    OTEL_BSP_SCHEDULE_DELAY: '500',
    OTEL_BSP_MAX_QUEUE_SIZE: '100',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '400',
    OTEL_BSP_EXPORT_TIMEOUT: '5000',
  }).telemetry.spanBatches;
  t.deepEqual(told, {
    scheduledDelayMillis: 500,
    maxQueueSize: 100,
    // A batch larger than the queue is the queue, as OpenTelemetry takes it.
    maxExportBatchSize: 100,
    exportTimeoutMillis: 5_000,
  });
  const err = t.throws(() => loadConfig({ OTEL_BSP_MAX_QUEUE_SIZE: 'lots' }), { instanceOf: ConfigError });
  t.regex(err!.message, /OTEL_BSP_MAX_QUEUE_SIZE/);
});

test("traces are kept as OTEL_TRACES_SAMPLER says; unless told, one in ten, a caller's choice followed", (t) => {
  t.deepEqual(loadConfig({}).telemetry.sampler, { root: 'traceidratio', parentBased: true, ratio: 0.1 });
  // Named without its argument, a ratio sampler keeps every trace, as OpenTelemetry takes it.
  t.deepEqual(loadConfig({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }).telemetry.sampler, {
    root: 'traceidratio',
    parentBased: true,
    ratio: 1,
  });
  t.deepEqual(
    loadConfig({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).telemetry.sampler,
    { root: 'traceidratio', parentBased: true, ratio: 0.25 },
  );
  t.deepEqual(loadConfig({ OTEL_TRACES_SAMPLER: 'always_off' }).telemetry.sampler, {
    root: 'always_off',
    parentBased: false,
    ratio: 1,
  });
  for (const [key, value] of [
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_TRACES_SAMPLER_ARG', 'half'],
  ] as const) {
    const err = t.throws(() => loadConfig({ OTEL_TRACES_SAMPLER: 'traceidratio', [key]: value }), {
      instanceOf: ConfigError,
    });
    t.regex(err!.message, new RegExp(key), `${key}=${value}`);
  }
});

test("operations.md's configuration table names every variable the service reads, once, and no other", (t) => {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Configuration'), doc.indexOf('## Rotating secrets'));
  const named = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)].map((m) => m[1]!));
  // The older storage names stand in one row as MINIO_PRESIGN_* for both of theirs.
  const expand = (name: string) =>
    name.endsWith('*') ? STORAGE_ALIAS_VARIABLES.filter((alias) => alias.startsWith(name.slice(0, -1))) : [name];
  const documented = named.flatMap(expand);
  t.deepEqual(
    documented.filter((name, i) => documented.indexOf(name) !== i),
    [],
    'named twice',
  );
  t.deepEqual([...documented].sort(), [...ENVIRONMENT_VARIABLES, ...STORAGE_ALIAS_VARIABLES].sort());
});
