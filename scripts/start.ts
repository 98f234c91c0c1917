// `npm start`: the whole service on this machine, no Docker. Builds MinIO and the Temporal CLI once into
// the user cache, keeps data under .data/, prints the URLs and keys, and stops everything on Ctrl-C.
import { join } from 'node:path';
import { z } from 'zod';
import { isPortFree } from './stack/ports.js';
import { bootstrapOrganization, REPO_ROOT, startStack, type StackPorts } from './stack/stack.js';
import { RESTART, Supervisor } from './stack/supervisor.js';

const port = z.coerce.number().int().min(1).max(65535);
const settingsSchema = z.object({
  DATA_DIR: z.string().min(1).default(join(REPO_ROOT, '.data')),
  PORT: port.default(8080),
  POSTGRES_PORT: port.default(54320),
  MINIO_PORT: port.default(9000),
  MINIO_CONSOLE_PORT: port.default(9001),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_HTTP_PORT: port.default(7243),
  TEMPORAL_METRICS_PORT: port.default(7244),
  CODEC_SERVER_PORT: port.default(8234),
  API_OPS_PORT: port.default(9464),
  WORKER_OPS_PORT: port.default(9465),
  ANALYSIS_OPS_PORT: port.default(9466),
  // A person reads the services' logs at a terminal: short lines rather than JSON, unless said.
  LOG_FORMAT: z.enum(['json', 'pretty']).default('pretty'),
});

const started = Date.now();
// Set once a signal (or a process that keeps failing) stops the stack: what fails after that is its doing.
let stopping = false;
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

async function main() {
  const parsed = settingsSchema.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(1);
  }
  const s = parsed.data;
  const ports: StackPorts = {
    api: s.PORT,
    postgres: s.POSTGRES_PORT,
    minio: s.MINIO_PORT,
    minioConsole: s.MINIO_CONSOLE_PORT,
    temporal: s.TEMPORAL_PORT,
    temporalUi: s.TEMPORAL_UI_PORT,
    temporalHttp: s.TEMPORAL_HTTP_PORT,
    temporalMetrics: s.TEMPORAL_METRICS_PORT,
    codec: s.CODEC_SERVER_PORT,
    apiOps: s.API_OPS_PORT,
    workerOps: s.WORKER_OPS_PORT,
    analysisOps: s.ANALYSIS_OPS_PORT,
  };
  const names: Record<keyof StackPorts, string> = {
    api: 'PORT',
    postgres: 'POSTGRES_PORT',
    minio: 'MINIO_PORT',
    minioConsole: 'MINIO_CONSOLE_PORT',
    temporal: 'TEMPORAL_PORT',
    temporalUi: 'TEMPORAL_UI_PORT',
    temporalHttp: 'TEMPORAL_HTTP_PORT',
    temporalMetrics: 'TEMPORAL_METRICS_PORT',
    codec: 'CODEC_SERVER_PORT',
    apiOps: 'API_OPS_PORT',
    workerOps: 'WORKER_OPS_PORT',
    analysisOps: 'ANALYSIS_OPS_PORT',
  };
  const busy = [];
  for (const [key, value] of Object.entries(ports) as [keyof StackPorts, number][]) {
    if (!(await isPortFree(value))) busy.push(`${names[key]}=${value}`);
  }
  if (busy.length > 0) {
    console.error(
      `Ports in use: ${busy.join(', ')}. Is the stack already running? Otherwise set those variables to free ports.`,
    );
    process.exit(1);
  }

  // Signals are handled from here on, while the stack is still starting too: a service manager (or the
  // benchmark) may stop it as soon as /readyz answers, before startStack has returned.
  const supervisor = new Supervisor(RESTART);
  const shutdown = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping API, worker, Temporal, MinIO and PostgreSQL`);
    await supervisor.stopAll();
    log('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal, 0));
  // A process that dies is restarted (its log says why); one that keeps dying at once stops the stack.
  supervisor.onRestart = (child, code, delayMs) => {
    log(
      `${child.spec.name} exited (${code ?? 'killed'}); restarting it in ${delayMs / 1000} s; see ` +
        `${child.spec.logFile}`,
    );
  };
  supervisor.onUnexpectedExit = (child, code) => {
    console.error(
      `${child.spec.name} exited (${code ?? 'killed'}) ${RESTART.maxFastFailures} times in a row ` +
        `within ${RESTART.healthyMs / 1000} s of starting; giving up. See ${child.spec.logFile}`,
    );
    void shutdown(`${child.spec.name} failed`, 1);
  };

  log(`starting the stack (data in ${s.DATA_DIR})`);
  // Compiled: the API and the worker start as production runs them, from .build/ (scripts/compile.ts).
  const stack = await startStack({
    dataDir: s.DATA_DIR,
    ports,
    durable: true,
    echoServices: true,
    compiled: true,
    serviceEnv: { LOG_FORMAT: s.LOG_FORMAT },
    log,
    supervisor,
  });
  // A signal that came as the stack became ready: it is being stopped, not announced.
  if (stopping) return;

  const keys = await bootstrapOrganization(stack.config, `${s.DATA_DIR}/dev-keys.json`);
  console.log(
    `
  Loan-package review service is ready (${((Date.now() - started) / 1000).toFixed(1)}s)

  API base URL   ${stack.urls.api}
  Health         http://127.0.0.1:${ports.api}/healthz   readiness: http://127.0.0.1:${ports.api}/readyz
  Metrics        http://127.0.0.1:${ports.apiOps}/metrics (API); the workers' on ports ${ports.workerOps}, \
${ports.analysisOps}
  OpenAPI        ${stack.urls.api}/openapi.json
  API docs       http://127.0.0.1:${ports.api}/docs/
  Temporal UI    ${stack.urls.temporalUi}   payloads opened by the codec server ${stack.urls.codec}
  MinIO console  ${stack.urls.minioConsole}
${
  keys
    ? `
  Organization   ${keys.organizationId}
  Live key       ${keys.liveKey}
  Sandbox key    ${keys.sandboxKey}
`
    : `
  Keys: the database has organizations but no bootstrap keys on file; create one with
        npm run admin -- key create --org <organization id> --mode live
`
}
  Try:  curl -H "Authorization: Bearer ${keys?.liveKey ?? '<key>'}" ` +
      `${stack.urls.api}/reviews/00000000-0000-4000-8000-000000000000

  Ctrl-C stops everything; data stays in ${s.DATA_DIR}.
`,
  );
}

main().catch((err) => {
  // Stopped on purpose while starting: shutdown() exits once every process is gone.
  if (stopping) return;
  console.error(`npm start failed: ${(err as Error).message}`);
  process.exit(1);
});
