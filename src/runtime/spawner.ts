// Starts child processes from a small helper process (spawner-process.ts), not from this one. Starting a
// process forks its caller first, and a fork copies the caller's page tables: from the analysis worker,
// resident at half a gigabyte to a gigabyte and more with its pdf.js threads, one tesseract run cost some
// 20–40 ms of CPU and held the event loop as long or longer (a known cost of Node's spawn on Linux); from a
// helper of some 50 MB it costs a millisecond or two. The helper is started once, at the first spawn, and
// exits with this process.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { threadEntry } from './thread-entry.js';

export type SpawnerRequest =
  | { type: 'spawn'; id: number; command: string; args: string[]; env: NodeJS.ProcessEnv; background: boolean }
  | { type: 'kill'; id: number };

export type SpawnerReply =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'stdout' | 'stderr'; id: number; data: Uint8Array }
  | { type: 'error'; id: number; message: string; code?: string }
  | { type: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

/** What a started process says as it runs. */
export interface SpawnListeners {
  stdout(chunk: Uint8Array): void;
  stderr(chunk: Uint8Array): void;
}

/** A process the helper started. */
export interface SpawnedProcess {
  readonly pid: number;
  /** Kills it (SIGKILL); the helper, which still holds it, makes sure the signal reaches no other process. */
  kill(): void;
  /** Settles when it is gone and its output has all come: its exit code, or the signal that ended it. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

interface Pending {
  listeners: SpawnListeners;
  started: { resolve(p: SpawnedProcess): void; reject(e: Error): void };
  closed?: { resolve(v: { code: number | null; signal: NodeJS.Signals | null }): void; reject(e: Error): void };
  /** Why it could not be started, as spawn's error says it (`code` ENOENT: no such binary). */
  error?: { message: string; code?: string };
}

/** A running helper, and what it was asked to start and has not yet reported gone. */
interface Helper {
  process: ChildProcess;
  pending: Map<number, Pending>;
}

let helper: Promise<Helper> | undefined;
let ids = 0;

/**
 * Starts `command` with `args` and `env` by way of the helper, stdin closed, its output passed to
 * `listeners` as it comes; `background` lowers its scheduling priority (background-priority.ts) as soon as
 * it is started. Rejects where it cannot be started (no such binary, or no helper).
 */
export async function spawnProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  listeners: SpawnListeners,
  o: { background?: boolean } = {},
): Promise<SpawnedProcess> {
  const { process: spawner, pending } = await helperProcess();
  const id = ++ids;
  return new Promise<SpawnedProcess>((resolve, reject) => {
    pending.set(id, { listeners, started: { resolve, reject } });
    // Kept referenced while anything it started runs: this process waits for their answers.
    spawner.channel?.ref();
    const request: SpawnerRequest = {
      type: 'spawn',
      id,
      command,
      args: [...args],
      env,
      background: o.background ?? false,
    };
    spawner.send(request, (err) => {
      // The helper went away meanwhile (its exit fails what was pending; this is for the send alone).
      if (err && pending.delete(id)) reject(err);
    });
  });
}

/** Stops the helper and whatever it runs (a test's or a benchmark's end; a worker's exit stops it too). */
export async function stopSpawner(): Promise<void> {
  const running = (await helper?.catch(() => undefined))?.process;
  helper = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  // Referenced again, so that this process waits for the exit it asks for.
  running.ref();
  running.kill('SIGTERM');
  await exited;
}

/** The helper's pid, once it runs (tests and benchmarks count the CPU of what it starts). */
export async function spawnerPid(): Promise<number | undefined> {
  return (await helper?.catch(() => undefined))?.process.pid;
}

function helperProcess(): Promise<Helper> {
  if (!helper) {
    const starting: Promise<Helper> = startHelper(() => starting).catch((err: unknown) => {
      if (helper === starting) helper = undefined;
      throw err;
    });
    helper = starting;
  }
  return helper;
}

/** Starts the helper; `self` is the promise of it that `helper` holds, cleared once this one is gone. */
async function startHelper(self: () => Promise<Helper>): Promise<Helper> {
  const entry = await threadEntry('spawner-process', new URL('./spawner-process.ts', import.meta.url));
  // A plain node: no loader, profiler or inspector flags of this process's own.
  const child = fork(fileURLToPath(entry), [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pending = new Map<number, Pending>();
  child.on('message', (reply: SpawnerReply) => answer(child, pending, reply));
  // Its channel closing says it is gone (the exit itself is not waited for: an idle helper is unreferenced).
  const gone = (why: string) => {
    if (helper === self()) helper = undefined;
    const err = new Error(`the process helper exited (${why})`);
    for (const [id, p] of pending) {
      pending.delete(id);
      p.started.reject(err);
      p.closed?.reject(err);
    }
  };
  child.once('disconnect', () => gone('its channel closed'));
  child.once('exit', (code, signal) => gone(String(signal ?? code)));
  // A failed kill or send of its own: it is as good as gone (and an 'error' with no listener would throw).
  child.on('error', (err) => {
    gone(err.message);
    child.kill('SIGKILL');
  });
  // An idle helper does not keep this process alive.
  child.unref();
  child.channel?.unref();
  return { process: child, pending };
}

function answer(child: ChildProcess, pending: Map<number, Pending>, reply: SpawnerReply): void {
  const p = pending.get(reply.id);
  if (!p) return;
  switch (reply.type) {
    case 'spawned': {
      const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
        p.closed = { resolve, reject };
      });
      // Nobody need be waiting on `closed` when the helper dies; the rejection is theirs to see if they do.
      closed.catch(() => undefined);
      p.started.resolve({
        pid: reply.pid,
        kill: () => {
          // A helper gone meanwhile took the process with it (or left it to its own budget).
          if (pending.has(reply.id) && child.connected)
            child.send({ type: 'kill', id: reply.id } satisfies SpawnerRequest, () => undefined);
        },
        closed,
      });
      return;
    }
    case 'stdout':
      p.listeners.stdout(reply.data);
      return;
    case 'stderr':
      p.listeners.stderr(reply.data);
      return;
    case 'error':
      p.error = { message: reply.message, code: reply.code };
      return;
    case 'close':
      pending.delete(reply.id);
      if (pending.size === 0) child.channel?.unref();
      if (p.closed) p.closed.resolve({ code: reply.code, signal: reply.signal });
      else p.started.reject(notStarted(p.error, reply));
      return;
  }
}

/** The error of a process that was never started, with spawn's `code` (ENOENT) where it gave one. */
function notStarted(error: Pending['error'], reply: { code: number | null; signal: NodeJS.Signals | null }): Error {
  const err: NodeJS.ErrnoException = new Error(
    error?.message ?? `the process could not be started (${reply.signal ?? reply.code})`,
  );
  if (error?.code) err.code = error.code;
  return err;
}
