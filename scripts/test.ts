// `npm test`: starts the whole stack on free ports in a throw-away directory, runs the ava suite against
// it, stops everything whatever happened, and ends with the line `N passed, N failed[, N skipped]`.
// Arguments after `--` go to ava (e.g. `npm test -- test/integration/auth.test.ts`). `--run <script>` runs one
// script against the same throw-away stack instead of the suite (`npm run histories:record`). `--cluster`
// first puts a secured Temporal cluster in the stack in place of the dev server (`npm run test:cluster`).
import { spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './stack/ports.js';
import { printServiceTrouble } from './stack/service-trouble.js';
import { REPO_ROOT, startStack, type Stack, type StackPorts } from './stack/stack.js';
import { Supervisor, type Supervised } from './stack/supervisor.js';
import { createTestCertificates } from './stack/test-certificates.js';

const started = Date.now();
const log = (line: string) => console.log(`# [stack ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
}

async function runAva(env: Record<string, string>, args: string[], tally: Tally): Promise<number> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/ava/entrypoints/cli.mjs'), '--tap', ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // TAP's closing counts are the reliable summary; stream every line through as it comes.
  for await (const line of createInterface({ input: child.stdout })) {
    console.log(line);
    const m = /^# (pass|fail|skip|todo) (\d+)$/.exec(line);
    if (m) {
      const n = Number(m[2]);
      if (m[1] === 'pass') tally.passed = n;
      else if (m[1] === 'fail') tally.failed = n;
      else if (m[1] === 'skip') tally.skipped = n;
      else tally.todo = n;
    }
  }
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code ?? 1));
  });
}

/**
 * Signals a process gets from its own fatal error (Node's abort on a failed assertion, a segfault), never
 * from a fault test: those stop services with SIGKILL or SIGSTOP.
 */
const CRASH_SIGNALS: ReadonlySet<string> = new Set(['SIGABRT', 'SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE']);

/** Lines of a crashed service's log printed with its crash: its last words are the crash's trace. */
const CRASH_LOG_LINES = 40;

async function printCrash(child: Supervised, signal: string): Promise<void> {
  console.log(`# the stack's ${child.spec.name} crashed (${signal}) while the tests ran; its log ends:`);
  const log = await readFile(child.spec.logFile, 'utf8').catch(() => '');
  for (const line of log.trimEnd().split('\n').slice(-CRASH_LOG_LINES)) console.log(`#   ${line.slice(0, 400)}`);
}

async function runScript(env: Record<string, string>, script: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import=tsx', script, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function main(): Promise<number> {
  const temporalCluster = process.argv[2] === '--cluster';
  const args = process.argv.slice(temporalCluster ? 3 : 2);
  const dataDir = await mkdtemp(join(tmpdir(), 'loan-review-test-'));
  // The postgres system user (when we are root) must be able to reach its cluster below this directory.
  await chmod(dataDir, 0o755);
  const ports: StackPorts = {
    api: await freePort(),
    postgres: await freePort(),
    minio: await freePort(),
    minioConsole: await freePort(),
    temporal: await freePort(),
    temporalUi: await freePort(),
    temporalHttp: await freePort(),
    temporalMetrics: await freePort(),
    codec: await freePort(),
    apiOps: await freePort(),
    workerOps: await freePort(),
    analysisOps: await freePort(),
  };
  const tally: Tally = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let stack: Stack | undefined;
  // A service of the stack that crashes fails the run by name: every test after it would fail for it
  // (the test stack restarts nothing), each saying only what it saw.
  const crashes: { child: Supervised; signal: string }[] = [];
  const supervisor = new Supervisor();
  supervisor.onUnexpectedExit = (child, _code, signal) => {
    if (signal && CRASH_SIGNALS.has(signal)) crashes.push({ child, signal });
  };
  let exitCode = 1;
  const cleanup = async () => {
    await stack?.stop();
    // Keep the logs of the last run for whoever has to read a failure; drop the data.
    await rm(join(REPO_ROOT, '.data/last-test-logs'), { recursive: true, force: true });
    await cp(join(dataDir, 'logs'), join(REPO_ROOT, '.data/last-test-logs'), { recursive: true }).catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    log(`starting the stack in ${dataDir}`);
    const tls = await createTestCertificates(join(dataDir, 'tls'));
    stack = await startStack({
      dataDir,
      ports,
      durable: false,
      echoServices: false,
      supervisor,
      temporalCluster,
      // PostgreSQL offers TLS with the suite's certificate: database-tls.test.ts connects with verify-full.
      postgresTls: { certFile: tls.certFile, keyFile: tls.keyFile },
      serviceEnv: {
        NODE_ENV: 'test',
        TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'true',
        // The suite's HTTPS servers (source URLs, webhook receivers) present certificates of this CA.
        NODE_EXTRA_CA_CERTS: tls.caFile,
        // Short enough for a test to watch a stalled source time out.
        SOURCE_FETCH_IDLE_MS: '4000',
        // Every receiver of the suite is on 127.0.0.1: tests that time retries must not wait for each
        // other's deliveries. Pacing itself is tested against a host of its own (webhooks.test.ts).
        WEBHOOK_HOST_DELIVERIES_PER_SECOND: '1000',
      },
      log,
    });
    const descriptor = join(dataDir, 'test-stack.json');
    await writeFile(
      descriptor,
      JSON.stringify({
        apiUrl: stack.urls.api,
        dataDir,
        logDir: join(dataDir, 'logs'),
        serviceEnv: stack.serviceEnv,
        apiServiceEnv: stack.apiServiceEnv,
        tls,
        temporalCluster,
        opsUrls: {
          api: `http://127.0.0.1:${ports.apiOps}`,
          worker: `http://127.0.0.1:${ports.workerOps}`,
          analysis: `http://127.0.0.1:${ports.analysisOps}`,
        },
      }),
      { mode: 0o600 },
    );
    if (args[0] === '--run' && args[1]) {
      const code = await runScript({ ...stack.serviceEnv, TEST_STACK_FILE: descriptor }, args[1], args.slice(2));
      tally.passed = code === 0 ? 1 : 0;
      tally.failed = code === 0 ? 0 : 1;
      return code;
    }
    const avaExit = await runAva({ ...stack.serviceEnv, TEST_STACK_FILE: descriptor }, args, tally);
    // ava exits non-zero for failures it does not count as tests (a crashed file, an unhandled rejection).
    if (avaExit !== 0 && tally.failed === 0) tally.failed = 1;
    for (const { child, signal } of crashes) await printCrash(child, signal);
    tally.failed += crashes.length;
    exitCode = tally.failed > 0 || tally.passed === 0 ? 1 : 0;
    if (exitCode !== 0) await printServiceTrouble(join(dataDir, 'logs'));
  } catch (err) {
    console.log(`# the stack failed: ${(err as Error).message}`);
    tally.failed += 1;
  } finally {
    await cleanup();
  }
  const skipped = tally.skipped + tally.todo;
  console.log(`${tally.passed} passed, ${tally.failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
