// Starts the stack's processes and stops them in reverse order. Each child runs in its own process group
// (so a terminal's Ctrl-C reaches only us, and we decide the order: API and worker before the servers
// they use), logs to a file, and is killed with its whole group if it will not stop in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { lowerProcessPriority, lowerSessionGroup } from '../../src/runtime/background-priority.js';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  uid?: number;
  gid?: number;
  logFile: string;
  /**
   * Keep the child's standard input open until this settles, then close it (each start of the child,
   * restarts too): how the stack tells a child it launched early that what it needs is ready.
   */
  stdinOpenUntil?: Promise<unknown>;
  /** Echo output to the console with a `name |` prefix. */
  echo?: boolean;
  /** The signal that asks for a clean shutdown (Postgres: SIGINT, a fast shutdown). */
  stopSignal?: NodeJS.Signals;
  stopTimeoutMs?: number;
  /**
   * Started at the readers' lower priority (src/runtime/background-priority.ts): its session's scheduling
   * group and its first thread as soon as it runs, so that what it does before its own code lowers it
   * (loading its modules) already yields to the rest of the stack.
   */
  background?: boolean;
}

export interface Supervised {
  spec: ChildSpec;
  /** The current process: a restarted child has a new one. */
  process: ChildProcess;
  exited: Promise<number | null>;
  running: () => boolean;
}

/**
 * Restarting children that exit while the stack should run (`npm start`): after 1 s, doubling to 30 s
 * while they keep failing fast; a child that ran `healthyMs` counts as recovered. After `maxFastFailures`
 * exits in a row within `healthyMs` of their start, the supervisor gives up (onUnexpectedExit).
 */
export interface RestartPolicy {
  healthyMs: number;
  maxFastFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
}
export const RESTART: RestartPolicy = {
  healthyMs: 30_000,
  maxFastFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
};

export class Supervisor {
  private readonly children: Supervised[] = [];
  private stopping = false;
  /** Set by stopAll: a stack being stopped starts nothing more (a start still under way would orphan it). */
  private closed = false;
  /** Aborted by stopAll: the one-off commands of a start still under way (probes, installs, builds) are killed. */
  private readonly stopped = new AbortController();
  /** The steps of starting under way (see step): stopAll waits for them to end before it returns. */
  private readonly steps = new Set<Promise<unknown>>();
  /**
   * Called when a child exits while the stack is meant to be running, and is not (or no more) restarted:
   * with its exit code, or the signal that ended it.
   */
  onUnexpectedExit: (child: Supervised, code: number | null, signal: NodeJS.Signals | null) => void = () => {};
  /** Called when a child is restarted, with why and after how long. */
  onRestart: (child: Supervised, code: number | null, delayMs: number) => void = () => {};

  constructor(private readonly restart?: RestartPolicy) {
    // Last resort when the parent exits without stopping us (an uncaught error): no orphans.
    process.once('exit', () => {
      for (const c of this.children) if (c.running()) killGroup(c.process, 'SIGKILL');
    });
  }

  start(spec: ChildSpec): Supervised {
    if (this.closed) throw new Error(`not starting ${spec.name}: the stack is stopping`);
    const supervised = this.launch(spec);
    this.children.push(supervised);
    return supervised;
  }

  /** Spawns the child's process; on an unexpected exit restarts it into the same Supervised, or reports it. */
  private launch(spec: ChildSpec, into?: Supervised, fastFailures = 0): Supervised {
    const startedAt = Date.now();
    const log: WriteStream = createWriteStream(spec.logFile, { flags: 'a' });
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ? { ...spec.env } : process.env,
      stdio: [spec.stdinOpenUntil ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
      ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
      ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
    });
    if (spec.background && child.pid !== undefined) {
      lowerSessionGroup(child.pid);
      lowerProcessPriority(child.pid);
    }
    let alive = true;
    let endedBy: NodeJS.Signals | null = null;
    const forward = (chunk: Buffer) => {
      // Output can still arrive after 'exit' (stdio drains later): the exit line then goes first.
      if (!log.writableEnded) log.write(chunk);
      if (spec.echo) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim()) process.stdout.write(`${spec.name.padEnd(8)}| ${line}\n`);
      }
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    if (child.stdin) {
      // A child that exits first leaves a broken pipe: nothing to tell it any more.
      child.stdin.on('error', () => {});
      const close = () => child.stdin?.end();
      // Rejected: the stack is failing and stops the child; its stdin goes with it.
      spec.stdinOpenUntil?.then(close, () => {});
    }
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', (err) => {
        log.write(`failed to start: ${err.message}\n`);
        alive = false;
        resolve(null);
      });
      child.once('exit', (code, signal) => {
        alive = false;
        endedBy = signal;
        resolve(code);
        // The log ends once the child's output is drained, not at its exit.
        const done = () => log.end(`exited with ${code ?? signal}\n`);
        if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) done();
        else child.once('close', done);
      });
    });
    const supervised: Supervised = into ?? { spec, process: child, exited, running: () => false };
    supervised.process = child;
    supervised.exited = exited;
    supervised.running = () => alive;
    void exited.then((code) => {
      if (this.stopping || !this.children.includes(supervised)) return;
      const policy = this.restart;
      const fast = Date.now() - startedAt < (policy?.healthyMs ?? 0) ? fastFailures + 1 : 0;
      if (!policy || fast >= policy.maxFastFailures) {
        this.onUnexpectedExit(supervised, code, endedBy);
        return;
      }
      const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, fast - 1));
      this.onRestart(supervised, code, delay);
      // Whatever the dead leader left in its group (a server's helpers) goes before the new one starts.
      killGroup(child, 'SIGKILL');
      setTimeout(() => {
        if (!this.stopping && this.children.includes(supervised)) this.launch(spec, supervised, fast);
      }, delay).unref();
    });
    return supervised;
  }

  /** Stops one child: its stop signal, then SIGKILL to the group after its timeout. */
  async stop(child: Supervised): Promise<void> {
    if (!child.running()) return;
    killGroup(child.process, child.spec.stopSignal ?? 'SIGTERM');
    const timeout = child.spec.stopTimeoutMs ?? 15_000;
    const timer = setTimeout(() => killGroup(child.process, 'SIGKILL'), timeout);
    await child.exited;
    clearTimeout(timer);
    // Whatever the leader left in its group (helpers, grandchildren) goes with it.
    killGroup(child.process, 'SIGKILL');
  }

  /**
   * Runs a step of starting that runs commands of its own (a probe, apt-get, go install, initdb): stopAll
   * aborts its signal, which kills those commands, and waits for the step to end, so that no command of a
   * stack stopped while starting outlives it.
   */
  step<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('not starting a step: the stack is stopping'));
    const running = work(this.stopped.signal);
    this.steps.add(running);
    const forget = () => this.steps.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Stops every step of starting under way, then every child, last started first. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    this.closed = true;
    this.stopped.abort(new Error('the stack is stopping'));
    await Promise.allSettled([...this.steps]);
    for (const child of [...this.children].reverse()) await this.stop(child);
  }

  /** The child started under this name (fault tests kill a server this way). */
  child(name: string): Supervised | undefined {
    return this.children.find((c) => c.spec.name === name);
  }

  /** Stops and forgets a child, letting the stack go on (tests restart workers this way). */
  async remove(child: Supervised): Promise<void> {
    const wasStopping = this.stopping;
    this.stopping = true;
    await this.stop(child);
    this.stopping = wasStopping;
    this.children.splice(this.children.indexOf(child), 1);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command to completion, collecting its output; rejects with that output on failure. The command
 * runs in a process group of its own: an abort of `signal` kills the group (go install's compilers and
 * apt-get's dpkg with their parent) and settles once the command has exited.
 */
export async function run(
  command: string,
  args: string[],
  opts: {
    env?: NodeJS.ProcessEnv;
    uid?: number;
    gid?: number;
    cwd?: string;
    signal?: AbortSignal;
    onOutput?: (text: string) => void;
  } = {},
): Promise<string> {
  opts.signal?.throwIfAborted();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
  });
  let output = '';
  const collect = (d: Buffer) => {
    const text = d.toString();
    output += text;
    opts.onOutput?.(text);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const abort = () => killGroup(child, 'SIGKILL');
  opts.signal?.addEventListener('abort', abort, { once: true });
  // Last resort when we exit without an abort (an uncaught error): the command goes with us.
  process.once('exit', abort);
  try {
    const [code] = (await once(child, 'close')) as [number | null];
    opts.signal?.throwIfAborted();
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.trim()}`);
    return output;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    process.removeListener('exit', abort);
  }
}
