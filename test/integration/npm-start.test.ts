// `npm start` as a user runs it, on free ports and a data directory of its own: a SIGTERM or SIGINT sent
// to npm's own process (not its process group, as a service manager or `kill <pid>` sends it) reaches the
// stack, which stops every process it started and frees every port, and npm exits 0. The second start
// finds the first one's data (durable) and is stopped the other way.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, isPortFree } from '../../scripts/stack/ports.js';
import { REPO_ROOT } from '../../scripts/stack/stack.js';

const PORT_VARIABLES = [
  'PORT',
  'POSTGRES_PORT',
  'MINIO_PORT',
  'MINIO_CONSOLE_PORT',
  'TEMPORAL_PORT',
  'TEMPORAL_UI_PORT',
  'TEMPORAL_HTTP_PORT',
  'TEMPORAL_METRICS_PORT',
] as const;

/** Parent pid of every process on the machine (Linux /proc). */
async function parents(): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // The command name, in parentheses, may hold spaces: the fields after its closing one are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[1]) map.set(Number(name), Number(fields[1]));
  }
  return map;
}

async function descendants(root: number): Promise<number[]> {
  const ppid = await parents();
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, p] of ppid) if (p === parent) (found.push(pid), frontier.push(pid));
  }
  return found;
}

const alive = (pid: number) => readFile(`/proc/${pid}/stat`, 'utf8').then((s) => !/^\d+ \(.*\) Z /.test(s), () => false);

/** Starts `npm start` with only what a user's shell would have, and resolves once its banner says ready. */
async function npmStart(env: Record<string, string>): Promise<{ npm: ChildProcess; output: () => string }> {
  const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 180_000;
  while (!output.includes('is ready')) {
    if (npm.exitCode !== null) throw new Error(`npm start exited ${npm.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 180 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { npm, output: () => output };
}

let dataDir = '';
const started: number[] = [];
test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loan-review-npm-start-'));
  // The postgres system user (when we are root) must be able to reach its cluster below this directory.
  await chmod(dataDir, 0o755);
});
test.after.always(async () => {
  // Whatever a failed test left running goes; on success there is nothing left to kill.
  for (const pid of started) if (await alive(pid)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test.serial(`${signal} to npm start's own process stops every process it started and frees every port`, async (t) => {
    t.timeout(300_000);
    const ports = Object.fromEntries(await Promise.all(PORT_VARIABLES.map(async (v) => [v, String(await freePort())] as const)));
    const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, ...ports };
    // The Go-built servers' cache, where this machine keeps it elsewhere.
    for (const v of ['LOAN_REVIEW_CACHE_DIR', 'XDG_CACHE_HOME', 'GOPATH', 'GOCACHE', 'GOMODCACHE']) if (process.env[v]) env[v] = process.env[v]!;
    const { npm, output } = await npmStart(env);
    const tree = await descendants(npm.pid!);
    started.push(npm.pid!, ...tree);
    const stackProcesses = (await Promise.all(tree.map(async (pid) => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ')))).join('\n');
    // The stack under npm: API, worker, Temporal, MinIO and PostgreSQL are all its descendants.
    for (const name of ['api/server.ts', 'worker/main.ts', 'temporal', 'minio', 'postgres']) t.true(stackProcesses.includes(name), `${name} among:\n${stackProcesses}`);

    const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const sentAt = Date.now();
    process.kill(npm.pid!, signal);
    const [code, bySignal] = await exited;
    t.log(`npm exited ${code ?? bySignal} ${((Date.now() - sentAt) / 1000).toFixed(1)} s after ${signal}`);
    t.is(code, 0, output());
    t.regex(output(), /stopping API, worker, Temporal, MinIO and PostgreSQL/);

    const left = [];
    for (const pid of tree) if (await alive(pid)) left.push(pid);
    t.deepEqual(left, [], 'no process of the stack outlives npm');
    const busy = [];
    for (const [name, port] of Object.entries(ports)) if (!(await isPortFree(Number(port)))) busy.push(`${name}=${port}`);
    t.deepEqual(busy, [], 'every port is free again');
  });
}
