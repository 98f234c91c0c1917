// docker-compose.yml cannot run here (no Docker engine), so it is checked for what can drift: valid YAML,
// every service of the deployment with a health check or an ordering, pins that agree with the local
// stack, and a service environment our own config validation accepts.
import { codecServerProblems } from '../../src/temporal/codec-server.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { SERVICE_USERS } from '../../src/storage/service-users.js';
import { MINIO_SERVER } from '../../scripts/stack/go-binaries.js';
import { SERVICE_DYNAMIC_CONFIG } from '../../scripts/stack/temporal-settings.js';
import { BACKGROUND_NICE } from '../../src/runtime/background-priority.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  cpu_shares?: number;
  healthcheck?: unknown;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};

test('the deployment has postgres, minio, temporal with its UI, setup, api, and a worker for each task queue', (t) => {
  t.deepEqual(Object.keys(compose.services).sort(), [
    'analysis',
    'api',
    'codec',
    'minio',
    'postgres',
    'setup',
    'temporal',
    'temporal-ui',
    'worker',
  ]);
  t.is(compose.services.worker!.environment?.WORKER_QUEUES, 'reviews');
  t.is(compose.services.analysis!.environment?.WORKER_QUEUES, 'analysis');
  t.is(compose.services.analysis!.depends_on?.setup?.condition, 'service_completed_successfully');
  for (const name of ['postgres', 'minio', 'temporal', 'api', 'worker', 'analysis'])
    t.truthy(compose.services[name]!.healthcheck, `${name} has a health check`);
  t.is(compose.services.worker!.depends_on?.setup?.condition, 'service_completed_successfully');
  t.is(compose.services.api!.depends_on?.setup?.condition, 'service_completed_successfully');
});

test(
  'only the API and the S3 endpoint are published beyond this host; the Temporal UI, its codec ' +
    'server and the MinIO console are not',
  (t) => {
    const published = Object.entries(compose.services).flatMap(([name, service]) =>
      ((service as { ports?: string[] }).ports ?? []).map((p) => ({
        name,
        public: !p.startsWith('127.0.0.1:'),
        container: p.split(':').at(-1),
      })),
    );
    t.deepEqual(
      published
        .filter((p) => p.public)
        .map((p) => `${p.name}:${p.container}`)
        .sort(),
      ['api:8080', 'minio:9000'],
    );
    t.deepEqual(
      published
        .filter((p) => !p.public)
        .map((p) => `${p.name}:${p.container}`)
        .sort(),
      ['codec:8234', 'minio:9001', 'temporal-ui:8080'],
    );
    // The UI's browser calls the codec server at the address this host publishes it on, and it answers that origin.
    const ui = compose.services['temporal-ui']!.environment ?? {};
    t.is(ui.TEMPORAL_CODEC_ENDPOINT, 'http://127.0.0.1:8234');
    t.regex(
      String(compose.services.codec!.environment?.CODEC_SERVER_ALLOWED_ORIGINS),
      /(^|,)http:\/\/127\.0\.0\.1:8233(,|$)/,
    );
  },
);

test(
  "only setup holds MinIO's root credentials; the API, the workers and report links each have a " + 'user of their own',
  (t) => {
    const env = (name: string) => compose.services[name]!.environment ?? {};
    const holdsRoot = Object.keys(compose.services).filter((name) =>
      Object.values(env(name)).some((v) => /MINIO_ROOT_(USER|PASSWORD)/.test(String(v))),
    );
    t.deepEqual(holdsRoot.sort(), ['minio', 'setup']);
    t.like(env('api'), { S3_ACCESS_KEY: SERVICE_USERS.api, S3_PRESIGN_ACCESS_KEY: SERVICE_USERS.reports });
    for (const name of ['worker', 'analysis']) t.is(env(name).S3_ACCESS_KEY, SERVICE_USERS.worker, name);
    // Setup makes every one of them.
    for (const variable of ['MINIO_API_SECRET_KEY', 'MINIO_WORKER_SECRET_KEY', 'MINIO_REPORTS_SECRET_KEY'])
      t.truthy(env('setup')[variable], variable);
  },
);

test('the API and both workers run as two replicas each, and start only after setup has migrated once', (t) => {
  for (const name of ['api', 'worker', 'analysis']) {
    t.true((compose.services[name]!.deploy?.replicas ?? 1) >= 2, `${name} replicas`);
    t.is(compose.services[name]!.depends_on?.setup?.condition, 'service_completed_successfully', name);
  }
  // Replicas of the API each take a host port of their own, for the load balancer in front.
  t.deepEqual((compose.services.api as { ports?: string[] }).ports, ['8080-8081:8080']);
});

test('production needs the addresses callers reach: no default puts localhost in a link', (t) => {
  const env = compose.services.api!.environment ?? {};
  t.regex(env.PUBLIC_BASE_URL!, /^\$\{PUBLIC_BASE_URL:\?/);
  t.regex(env.S3_PUBLIC_ENDPOINT!, /^\$\{S3_PUBLIC_ENDPOINT:\?/);
});

test('the image runs a Node.js release line still supported (24, LTS until April 2028)', (t) => {
  const from = /^FROM node:(\d+)\.(\d+)-bookworm-slim$/m.exec(
    readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'),
  );
  t.truthy(from, 'the Dockerfile starts from a pinned node:<major>.<minor>-bookworm-slim');
  t.is(Number(from![1]), 24);
});

test('the analysis containers weigh on the CPU as nice 10 does against nice 0; every other service at the default', (t) => {
  // The kernel's weights: nice 0 is 1024, nice 10 is 110. A container's threads' nice values count only
  // among themselves, so the analysis worker's own lowering needs its container's weight to match.
  t.is(BACKGROUND_NICE, 10);
  t.is(compose.services.analysis!.cpu_shares, 110);
  for (const [name, service] of Object.entries(compose.services))
    if (name !== 'analysis') t.is(service.cpu_shares, undefined, name);
});

test('MinIO is pinned to the release the local stack builds', (t) => {
  t.is(compose.services.minio!.image, `minio/minio:${MINIO_SERVER.label}`);
});

test("the Temporal server has the local stack's settings: one write partition per task queue, eager activities, prompt deletions", (t) => {
  const temporal = compose.services.temporal!;
  const path = temporal.environment?.DYNAMIC_CONFIG_FILE_PATH;
  const mount = temporal.volumes?.find((v) => v.split(':')[1] === path);
  t.truthy(mount, 'the dynamic configuration file the server reads is mounted');
  const file = new URL(`../../${mount!.split(':')[0]!.replace(/^\.\//, '')}`, import.meta.url);
  const config = parse(readFileSync(file, 'utf8')) as Record<string, { value: unknown }[]>;
  t.deepEqual(
    SERVICE_DYNAMIC_CONFIG.map(({ key }) => key),
    [
      'matching.numTaskqueueWritePartitions',
      'system.enableActivityEagerExecution',
      'history.transferProcessorUpdateAckInterval',
    ],
  );
  for (const { key, value } of SERVICE_DYNAMIC_CONFIG) t.deepEqual(config[key], [{ value }], key);
});

test('the api and worker environment passes config validation in production mode', (t) => {
  for (const name of ['api', 'worker', 'analysis', 'setup', 'codec']) {
    const env = Object.fromEntries(
      Object.entries(compose.services[name]!.environment ?? {}).map(([k, v]) => [
        k,
        // Substitute ${VAR:?…} / ${VAR:-default} the way compose would with these values set.
        String(v).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, variable: string, op?: string, text?: string) =>
          variable === 'WEBHOOK_SECRET_KEY' || variable === 'TEMPORAL_PAYLOAD_KEY'
            ? Buffer.alloc(32, variable.length).toString('base64')
            : variable === 'SERVER_SECRET' || variable === 'CODEC_SERVER_TOKEN'
              ? 's'.repeat(40)
              : variable.endsWith('_URL') || variable.endsWith('_ENDPOINT')
                ? op === '-' && text
                  ? text
                  : `https://${variable.toLowerCase().replaceAll('_', '-')}.example.com`
                : 'value123',
        ),
      ]),
    );
    t.notThrows(() => loadConfig(env), name);
    t.is(loadConfig(env).env, 'production');
    // The codec server asks for a credential, so it starts in production (scripts/codec-server.ts).
    if (name === 'codec') t.deepEqual(codecServerProblems(loadConfig(env).temporal.codecServer), []);
  }
});
