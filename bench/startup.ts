// `npm run bench:startup`: how long `npm start` takes from launch until `/readyz` answers 200 (the target:
// at most twice the servers' own readiness). Here: `npm start` as a user runs it, in a data directory of
// its own on free ports, started once untimed (initdb, migrations, the builds) and then timed on every
// later start, each stopped cleanly (SIGTERM, exit 0). Plain: PostgreSQL, MinIO and the Temporal dev
// server alone, from the same binaries with the same arguments, started at once in a directory of their
// own (also started once untimed first), until each answers (Postgres a query, MinIO its liveness
// endpoint, Temporal the namespace). Every round begins once the one-minute load average is at most 2 (the
// target's condition), and reports the CPU-seconds its processes spent until ready. `npm run
// bench:startup -- 5` runs five rounds (default 3).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { alternate, MIN_ROUNDS, report } from './side-by-side.js';
import { ensureGoBinary, MINIO_SERVER, TEMPORAL_CLI } from '../scripts/stack/go-binaries.js';
import { freePort } from '../scripts/stack/ports.js';
import { initCluster, postgresBinDir, postgresProcess, postgresUser } from '../scripts/stack/postgres.js';
import {
  minioAnswers,
  minioProcess,
  REPO_ROOT,
  temporalAnswers,
  temporalProcess,
  type StackPorts,
} from '../scripts/stack/stack.js';
import { Supervisor } from '../scripts/stack/supervisor.js';
import { processCpu, type ProcessCpu } from '../scripts/stack/throwaway.js';

const rounds = Number(process.argv[2] ?? MIN_ROUNDS);
// Both sides are polled alike, so that neither gains from the other's probing interval.
const POLL_MS = 50;
const READY_WITHIN_MS = 180_000;
const log = (line: string) => console.error(line);
/** A round begins once the one-minute load average is at most this (the target is set at load ≤ 2)... */
const QUIET_LOAD = 2;
/** ...or after this long, said in the notes. */
const QUIET_WITHIN_MS = 10 * 60_000;
/** Rounds that began above QUIET_LOAD, their load then. */
const noisy: number[] = [];

/** Waits until the machine is quiet (QUIET_LOAD), at most QUIET_WITHIN_MS. */
async function quiet(): Promise<void> {
  const deadline = Date.now() + QUIET_WITHIN_MS;
  while (loadavg()[0]! > QUIET_LOAD && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5_000));
  if (loadavg()[0]! > QUIET_LOAD) noisy.push(loadavg()[0]!);
}

/**
 * CPU-seconds spent by every process this one started, directly or not, and is still running (each
 * with its reaped children): what a round's processes cost until the moment it is called.
 */
async function descendantsCpuSeconds(): Promise<number> {
  const stats = new Map<number, ProcessCpu>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // A process may end between the listing and the read.
    const cpu = await processCpu(Number(entry)).catch(() => undefined);
    if (cpu) stats.set(Number(entry), cpu);
  }
  const ours = (pid: number): boolean => {
    for (let p = stats.get(pid)?.ppid; p !== undefined && p > 1; p = stats.get(p)?.ppid)
      if (p === process.pid) return true;
    return false;
  };
  let seconds = 0;
  for (const [pid, cpu] of stats) if (ours(pid)) seconds += cpu.own + cpu.children;
  return seconds;
}

/** CPU-seconds each side's rounds spent until ready. */
const cpu = { here: [] as number[], plain: [] as number[] };

async function freePorts(): Promise<StackPorts> {
  const keys = [
    'api',
    'postgres',
    'minio',
    'minioConsole',
    'temporal',
    'temporalUi',
    'temporalHttp',
    'temporalMetrics',
    'apiOps',
    'workerOps',
    'analysisOps',
  ] as const;
  return Object.fromEntries(
    await Promise.all(keys.map(async (k) => [k, await freePort()] as const)),
  ) as unknown as StackPorts;
}

/** Seconds from `started` until `probe` holds; a probe that throws counts as not yet. */
async function secondsUntil(
  started: number,
  what: string,
  probe: () => Promise<boolean>,
  abort?: () => string | undefined,
): Promise<number> {
  for (;;) {
    if (await probe().catch(() => false)) return (performance.now() - started) / 1000;
    const why = abort?.();
    if (why) throw new Error(`${what}: ${why}`);
    if (performance.now() - started > READY_WITHIN_MS)
      throw new Error(`${what} was not ready within ${READY_WITHIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function answers200(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.body?.cancel();
  return res.status === 200;
}

// ---- here: npm start ----

const dataDir = await mkdtemp(join(tmpdir(), 'loan-review-bench-startup-'));
// The postgres system user (when we are root) must reach its cluster below this directory.
await chmod(dataDir, 0o755);

/** `npm start` on fresh ports: seconds from launch to /readyz 200, then stopped with SIGTERM (exit 0). */
async function npmStart(): Promise<number> {
  await quiet();
  const ports = await freePorts();
  const env: Record<string, string> = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME!,
    DATA_DIR: dataDir,
    PORT: String(ports.api),
    POSTGRES_PORT: String(ports.postgres),
    MINIO_PORT: String(ports.minio),
    MINIO_CONSOLE_PORT: String(ports.minioConsole),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.temporalUi),
    TEMPORAL_HTTP_PORT: String(ports.temporalHttp),
    TEMPORAL_METRICS_PORT: String(ports.temporalMetrics),
    API_OPS_PORT: String(ports.apiOps),
    WORKER_OPS_PORT: String(ports.workerOps),
    ANALYSIS_OPS_PORT: String(ports.analysisOps),
  };
  // The Go-built servers' cache, where this machine keeps it elsewhere.
  for (const v of ['LOAN_REVIEW_CACHE_DIR', 'XDG_CACHE_HOME', 'GOPATH', 'GOCACHE', 'GOMODCACHE'])
    if (process.env[v]) env[v] = process.env[v]!;
  const started = performance.now();
  const npm: ChildProcess = spawn('npm', ['start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const seconds = await secondsUntil(
      started,
      'npm start',
      () => answers200(`http://127.0.0.1:${ports.api}/readyz`),
      () => (npm.exitCode !== null ? `exited ${npm.exitCode} before ready:\n${output}` : undefined),
    );
    cpu.here.push(await descendantsCpuSeconds());
    return seconds;
  } finally {
    if (npm.exitCode === null) npm.kill('SIGTERM');
    const [code, signal] = await exited;
    // biome-ignore lint/correctness/noUnsafeFinally: npm start failing to stop is the failure to report.
    if (code !== 0) throw new Error(`npm start stopped with ${code ?? signal}, not 0:\n${output}`);
  }
}

// ---- plain: the three servers ----

const plainDir = join(dataDir, 'plain');
const [temporalBin, minioBin, pgBin, pgUser] = await Promise.all([
  ensureGoBinary(process.env, TEMPORAL_CLI, log),
  ensureGoBinary(process.env, MINIO_SERVER, log),
  postgresBinDir(process.env, log),
  postgresUser(),
]);
const secrets = {
  postgresPassword: 'bench-startup',
  minioAccessKey: 'bench-startup',
  minioSecretKey: 'bench-startup-secret',
};
const cluster = {
  binDir: pgBin,
  dataDir: join(plainDir, 'postgres'),
  user: pgUser,
  superuser: 'review',
  password: secrets.postgresPassword,
};
await mkdir(plainDir, { recursive: true });
await chmod(plainDir, 0o755);
await initCluster(cluster, log);
await mkdir(join(plainDir, 'minio'), { recursive: true });
await mkdir(join(plainDir, 'temporal'), { recursive: true });
await mkdir(join(plainDir, 'logs'), { recursive: true });

/** The three servers started at once: seconds from launch until every one answers, then stopped. */
async function servers(): Promise<number> {
  await quiet();
  const ports = await freePorts();
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME! };
  const namespace = 'default';
  const supervisor = new Supervisor();
  const started = performance.now();
  try {
    supervisor.start(
      postgresProcess({
        ...cluster,
        port: ports.postgres,
        logFile: join(plainDir, 'logs', 'postgres.log'),
        durable: true,
      }),
    );
    supervisor.start(
      minioProcess({
        bin: minioBin,
        dataDir: join(plainDir, 'minio'),
        ports,
        secrets,
        env,
        logFile: join(plainDir, 'logs', 'minio.log'),
      }),
    );
    supervisor.start(
      temporalProcess({
        bin: temporalBin,
        dbFile: join(plainDir, 'temporal', 'temporal.db'),
        ports,
        namespace,
        env,
        logFile: join(plainDir, 'logs', 'temporal.log'),
      }),
    );
    const pgUrl = `postgres://review:${secrets.postgresPassword}@127.0.0.1:${ports.postgres}/postgres`;
    const times = await Promise.all([
      secondsUntil(started, 'PostgreSQL', async () => {
        const sql = postgres(pgUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
        try {
          await sql`select 1`;
          return true;
        } finally {
          await sql.end({ timeout: 1 });
        }
      }),
      secondsUntil(started, 'MinIO', () => minioAnswers(ports.minio)),
      secondsUntil(started, 'Temporal', () => temporalAnswers(`127.0.0.1:${ports.temporal}`, namespace)),
    ]);
    cpu.plain.push(await descendantsCpuSeconds());
    return Math.max(...times);
  } finally {
    await supervisor.stopAll();
  }
}

try {
  log(`warming up: a first npm start (initdb, migrations, builds) and a first start of the servers, not timed`);
  log(`  first npm start: ${(await npmStart()).toFixed(2)} s; servers: ${(await servers()).toFixed(2)} s`);
  cpu.here.length = 0;
  cpu.plain.length = 0;
  noisy.length = 0;
  const sides = await alternate(
    rounds,
    { label: 'npm start → /readyz 200', measure: npmStart },
    { label: 'PostgreSQL + MinIO + Temporal ready', measure: servers },
  );
  report({
    what: 'launch → ready',
    unit: 's',
    higherIsBetter: false,
    ...sides,
    target: 0.5,
    notes: [
      'here: a second `npm start` of a data directory until /readyz answers 200; plain: the three ' +
        'servers started in parallel until each answers',
      `each round began at a one-minute load of at most ${QUIET_LOAD}` +
        (noisy.length ? ` but ${noisy.length}, which began at ${noisy.map((l) => l.toFixed(1)).join(', ')}` : ''),
      `CPU-seconds until ready: here ${cpu.here.map((c) => c.toFixed(2)).join(', ')}, plain ` +
        `${cpu.plain.map((c) => c.toFixed(2)).join(', ')} (every process of the round)`,
    ],
  });
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
