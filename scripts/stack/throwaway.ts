// A stack of one's own for a benchmark or a fault test: every server on free ports in a throw-away
// directory (as npm test has it), an organization with a live key, and the API's and worker's process
// ids to measure; stopped and removed afterwards.
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSql } from '../../src/db/client.js';
import { createApiKey } from '../../src/db/keys.js';
import { createOrganization } from '../../src/db/organizations.js';
import { freePort } from './ports.js';
import { printServiceTrouble } from './service-trouble.js';
import { startStack, type Stack, type StackPorts } from './stack.js';
import type { RestartPolicy } from './supervisor.js';
import { statFieldsAfterCommand } from '../../src/runtime/proc-stat.js';

export interface ThrowawayStack {
  stack: Stack;
  /** The API's base URL, …/v1. */
  api: string;
  key: string;
  /** A directory for the caller's files, removed with the stack. */
  dir: string;
  /** The API's, the review worker's and the analysis worker's. */
  pids: { api: number; worker: number; analysis: number };
  /** Every server's port (the API's operations port among them: its metrics). */
  ports: StackPorts;
}

/**
 * Runs `work` against a fresh stack whose services get `serviceEnv` on top of the test defaults; with
 * `restart`, processes that die are restarted as under npm start.
 */
export async function withThrowawayStack<T>(
  o: {
    serviceEnv?: Record<string, string>;
    restart?: RestartPolicy;
    log?: (line: string) => void;
    /** Postgres with fsync and synchronous commits, as npm start runs it (tests skip them for speed). */
    durable?: boolean;
    /** The API and the worker compiled to JavaScript, as npm start runs them (tests run them through tsx). */
    compiled?: boolean;
  },
  work: (b: ThrowawayStack) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'loan-review-bench-'));
  // The postgres system user (when we are root) must reach its cluster below this directory.
  await chmod(dir, 0o755);
  const ports = Object.fromEntries(
    await Promise.all(
      [
        'api',
        'postgres',
        'minio',
        'minioConsole',
        'temporal',
        'temporalUi',
        'temporalHttp',
        'temporalMetrics',
        'codec',
        'apiOps',
        'workerOps',
        'analysisOps',
      ].map(async (k) => [k, await freePort()]),
    ),
  ) as unknown as StackPorts;
  const stack = await startStack({
    dataDir: dir,
    ports,
    durable: o.durable ?? false,
    compiled: o.compiled ?? false,
    echoServices: false,
    serviceEnv: { NODE_ENV: 'test', ...o.serviceEnv },
    log: o.log ?? ((l) => console.log(`# ${l}`)),
    ...(o.restart ? { restart: o.restart } : {}),
  });
  try {
    const sql = createSql(stack.config, { max: 1 });
    const org = await createOrganization(sql, 'bench');
    const { key } = await createApiKey(sql, { organizationId: org.id, sandbox: false });
    await sql.end();
    return await work({
      stack,
      api: stack.urls.api,
      key,
      dir,
      ports,
      pids: { api: stack.api.process.pid!, worker: stack.worker.process.pid!, analysis: stack.analysis.process.pid! },
    });
  } finally {
    await stack.stop();
    await printServiceTrouble(join(dir, 'logs'));
    await rm(dir, { recursive: true, force: true });
  }
}

/** A process's resident memory now (VmRSS) or at most so far (VmHWM), in MiB. */
export async function memoryMiB(pid: number, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${which}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** A process's parent and CPU time so far, in seconds: its own (every thread) and its waited-for children's. */
export interface ProcessCpu {
  ppid: number;
  own: number;
  children: number;
}

/** /proc/<pid>/stat (clock ticks of 1/100 s) as ProcessCpu; 'self' is this process. */
export async function processCpu(pid: number | 'self'): Promise<ProcessCpu> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = statFieldsAfterCommand(stat).map(Number);
  return { ppid: fields[1]!, own: (fields[11]! + fields[12]!) / 100, children: (fields[13]! + fields[14]!) / 100 };
}

/** `pid` and every process under it still running, each with its CPU time so far, from one reading of /proc. */
export async function processTree(pid: number): Promise<(ProcessCpu & { pid: number })[]> {
  const table = new Map<number, ProcessCpu>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    // One gone meanwhile is not in the table.
    const cpu = await processCpu(Number(name)).catch(() => undefined);
    if (cpu) table.set(Number(name), cpu);
  }
  const root = table.get(pid);
  if (!root) return [];
  const tree = [{ pid, ...root }];
  for (let i = 0; i < tree.length; i++)
    for (const [child, cpu] of table) if (cpu.ppid === tree[i]!.pid) tree.push({ pid: child, ...cpu });
  return tree;
}

/**
 * The CPU time so far of a process and every process under it still running (the worker's process helper,
 * which starts its tesseract runs, spawner.ts): `own` theirs, every thread, `children` that of the processes
 * they have waited for (the tesseract runs that have ended).
 */
export async function processTreeCpu(pid: number): Promise<Omit<ProcessCpu, 'ppid'>> {
  let own = 0;
  let children = 0;
  for (const member of await processTree(pid)) {
    own += member.own;
    children += member.children;
  }
  return { own, children };
}

/**
 * A process's CPU time so far, user and system, all threads; with `children`, also that of the processes
 * under it (processTreeCpu: native tesseract runs).
 */
export async function cpuSeconds(pid: number, o: { children?: boolean } = {}): Promise<number> {
  if (!o.children) return (await processCpu(pid)).own;
  const cpu = await processTreeCpu(pid);
  return cpu.own + cpu.children;
}

/** CPU-seconds of the stack's two worker processes so far (reviews, analyses with their tesseract runs). */
export async function workersCpuSeconds(pids: ThrowawayStack['pids']): Promise<number> {
  return (await cpuSeconds(pids.worker)) + (await cpuSeconds(pids.analysis, { children: true }));
}
