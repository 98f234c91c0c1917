// `npm start` as a user runs it, on free ports and a data directory of its own: a SIGTERM or SIGINT sent
// to npm's own process (not its process group, as a service manager or `kill <pid>` sends it) reaches the
// stack, which stops every process it started and frees every port, and npm exits 0. The second start
// finds the first one's data (durable) and is stopped the other way. The API and the worker run compiled
// (.build/api.js, .build/worker.js), as does npm start's own launcher, and the worker loads the workflow
// bundle built before it, rather than bundling; a signal that comes while the stack is still starting
// stops it as cleanly.
import test, { type ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentBuild } from '../../scripts/compile-entry.mjs';
import { freePort, isPortFree } from '../../scripts/stack/ports.js';
import { REPO_ROOT } from '../../scripts/stack/stack.js';
import { processTree } from '../../scripts/stack/throwaway.js';

const PORT_VARIABLES = [
  'PORT',
  'POSTGRES_PORT',
  'MINIO_PORT',
  'MINIO_CONSOLE_PORT',
  'TEMPORAL_PORT',
  'TEMPORAL_UI_PORT',
  'TEMPORAL_HTTP_PORT',
  'TEMPORAL_METRICS_PORT',
  'CODEC_SERVER_PORT',
  'API_OPS_PORT',
  'WORKER_OPS_PORT',
  'ANALYSIS_OPS_PORT',
] as const;

/** The processes under `root` (not itself), still running. */
const descendants = async (root: number) => (await processTree(root)).slice(1).map((p) => p.pid);

const commandLine = async (pid: number) =>
  (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ');

/**
 * Whether the process still runs: not gone, not a zombie, and not exiting. A process whose memory is
 * already released (its command line reads empty: it has left its program) is exiting, and on a loaded
 * machine can be caught so at the moment npm exits.
 */
const alive = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && !/^\d+ \(.*\) Z /.test(stat) && (await commandLine(pid)) !== '';
};

/** Starts `npm start` with only what a user's shell would have, and resolves once its output says `until`. */
async function npmStart(
  env: Record<string, string>,
  until = 'is ready',
): Promise<{ npm: ChildProcess; output: () => string }> {
  const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 180_000;
  while (!output.includes(until)) {
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

async function userEnv(): Promise<{ env: Record<string, string>; ports: Record<string, string> }> {
  const ports = Object.fromEntries(
    await Promise.all(PORT_VARIABLES.map(async (v) => [v, String(await freePort())] as const)),
  );
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, ...ports };
  // The Go-built servers' cache, where this machine keeps it elsewhere.
  for (const v of ['LOAN_REVIEW_CACHE_DIR', 'XDG_CACHE_HOME', 'GOPATH', 'GOCACHE', 'GOMODCACHE'])
    if (process.env[v]) env[v] = process.env[v]!;
  return { env, ports };
}

/** Sends `signal` to npm's own process; asserts it exits 0 leaving no process of `tree` and no port behind. */
async function stopsCleanly(
  t: ExecutionContext,
  o: {
    npm: ChildProcess;
    output: () => string;
    signal: NodeJS.Signals;
    ports: Record<string, string>;
    tree: () => Promise<number[]>;
  },
): Promise<void> {
  const exited = once(o.npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // What was running when the signal went, and whatever was started after it (nothing should be).
  const before = await o.tree();
  const sentAt = Date.now();
  process.kill(o.npm.pid!, o.signal);
  const tree = [...new Set([...before, ...(await o.tree())])];
  started.push(...tree);
  const [code, bySignal] = await exited;
  t.log(`npm exited ${code ?? bySignal} ${((Date.now() - sentAt) / 1000).toFixed(1)} s after ${o.signal}`);
  t.is(code, 0, o.output());
  t.regex(o.output(), /stopping API, worker, Temporal, MinIO and PostgreSQL/);

  const left = [];
  for (const pid of tree) if (await alive(pid)) left.push(`${pid} ${await commandLine(pid)}`);
  t.deepEqual(left, [], 'no process of the stack outlives npm');
  const busy = [];
  for (const [name, port] of Object.entries(o.ports))
    if (!(await isPortFree(Number(port)))) busy.push(`${name}=${port}`);
  t.deepEqual(busy, [], 'every port is free again');
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test.serial(`${signal} to npm start's own process stops every process it started and frees every port`, async (t) => {
    t.timeout(300_000);
    const { env, ports } = await userEnv();
    const { npm, output } = await npmStart(env);
    const members = (await processTree(npm.pid!)).slice(1);
    const tree = members.map((p) => p.pid);
    started.push(npm.pid!, ...tree);
    // The launcher's tesseract probes ran by way of a process helper, which it stopped once they were
    // done: a helper of its own would be left to exit after it, a moment after npm had. The workers' own
    // helpers are stopped by the workers as they stop, before the launcher moves on to the servers.
    for (const p of members) {
      const command = await commandLine(p.pid);
      if (command.includes('spawner-process'))
        t.regex(await commandLine(p.ppid), /\.build\/worker\.js/, `the parent of ${p.pid} ${command}`);
    }
    // The analysis worker yields the CPU to the rest of the stack: every service leads a session of its
    // own, and Linux shares the CPU between sessions before it weighs threads' nice values, so the
    // worker's session group is lowered too (src/runtime/background-priority.ts); the API's is not.
    const groupNice = async (queues: RegExp) => {
      for (const p of members) {
        const environ = (await readFile(`/proc/${p.pid}/environ`, 'utf8').catch(() => '')).split('\0');
        if (environ.some((v) => queues.test(v)))
          return (await readFile(`/proc/${p.pid}/autogroup`, 'utf8').catch(() => '')).trim();
      }
      return `no process with ${queues}`;
    };
    t.regex(await groupNice(/^WORKER_QUEUES=analysis$/), / nice 10$/, 'the analysis worker');
    t.regex(await groupNice(/^WORKER_QUEUES=reviews$/), / nice 0$/, 'the review worker');
    const stackProcesses = (await Promise.all(tree.map(commandLine))).join('\n');
    // The stack under npm: API, worker, Temporal, MinIO and PostgreSQL are all its descendants; the API
    // and the worker run compiled, as production does, not their TypeScript through tsx.
    for (const name of ['.build/api.js', '.build/worker.js', 'temporal', 'minio', 'postgres'])
      t.true(stackProcesses.includes(name), `${name} among:\n${stackProcesses}`);
    for (const source of ['api/server.ts', 'worker/main.ts'])
      t.false(stackProcesses.includes(source), `${source} is not run:\n${stackProcesses}`);
    // The workflow bundle was built (or found current) before the worker connected: it loads it, and
    // does not bundle at its start.
    t.regex(
      output(),
      /worker\s*\| INFO: worker: loading the pre-built workflow bundle \S*\.build\/workflow-bundle\.js/,
    );
    t.notRegex(output(), /built the workflow bundle/);
    // The launcher itself ran compiled (scripts/run.mjs): its build in .build/scripts/ is of today's sources.
    t.truthy(await currentBuild(join(REPO_ROOT, 'scripts', 'start.ts')), 'a current build of scripts/start.ts');

    await stopsCleanly(t, { npm, output, signal, ports, tree: async () => tree });
  });
}

test.serial(
  'SIGTERM while npm start is still starting stops what it started, exits 0 and frees every port',
  async (t) => {
    t.timeout(300_000);
    const { env, ports } = await userEnv();
    // A tesseract that hangs: the stack's probe of it (run while the servers start) is surely under way
    // when the signal comes, and must not outlive the stack.
    const hanging = join(dataDir, 'hanging-tesseract');
    await mkdir(hanging, { recursive: true });
    await writeFile(join(hanging, 'tesseract'), '#!/bin/sh\nexec sleep 120\n', { mode: 0o755 });
    env.PATH = `${hanging}:${env.PATH}`;
    // Once the servers are launched and the stack waits for them, and the probe (started by way of a
    // helper process, which may itself take a moment to start) is seen running: the stack cannot become
    // ready before it ends, and it does not end for two minutes.
    const { npm, output } = await npmStart(env, 'ready (');
    started.push(npm.pid!);
    let running: string[] = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      running = await Promise.all((await descendants(npm.pid!)).map(commandLine));
      if (running.some((c) => c.startsWith('sleep 120'))) break;
    }
    t.true(
      running.some((c) => c.startsWith('sleep 120')),
      `the hanging probe runs within 30 s:\n${running.join('\n')}`,
    );
    t.notRegex(output(), /is ready/, 'the signal comes before the stack is ready');
    await stopsCleanly(t, { npm, output, signal: 'SIGTERM', ports, tree: () => descendants(npm.pid!) });
    t.notRegex(output(), /is ready/, 'a stack stopped while starting is not announced');
  },
);
