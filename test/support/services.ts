// Extra API and worker processes for tests that stop, kill or misconfigure them without disturbing the
// shared stack: each gets its own port and, where it matters, its own task queue.
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../scripts/stack/ports.js';
import { startService, waitForApi, waitForWorker } from '../../scripts/stack/stack.js';
import { Supervisor, type Supervised } from '../../scripts/stack/supervisor.js';
import { stack } from './stack.js';

export class TestServices {
  readonly supervisor = new Supervisor();
  private count = 0;

  /** A worker's environment (its MinIO user), with `overrides`. */
  env(overrides: Record<string, string>): Record<string, string> {
    return { ...stack.serviceEnv, ...overrides };
  }

  /** An API's environment (its MinIO user and the presign user), with `overrides`. */
  apiEnv(overrides: Record<string, string>): Record<string, string> {
    return { ...stack.apiServiceEnv, ...overrides };
  }

  async api(
    overrides: Record<string, string> = {},
    opts: { waitReady?: boolean } = {},
  ): Promise<{ child: Supervised; root: string; url: string }> {
    const port = await freePort();
    const env = this.apiEnv({ ...overrides, PORT: String(port) });
    const child = startService(
      this.supervisor,
      'api',
      env,
      stack.logDir,
      false,
      `api-test-${process.pid}-${++this.count}`,
    );
    const root = `http://127.0.0.1:${port}`;
    await untilReadyOrExited(child, (opts.waitReady ?? true) ? waitForApi(root) : waitForHealthz(root));
    return { child, root, url: `${root}/v1` };
  }

  async worker(overrides: Record<string, string> = {}): Promise<Supervised> {
    const env = this.env(overrides);
    const child = startService(
      this.supervisor,
      'worker',
      env,
      stack.logDir,
      false,
      `worker-test-${process.pid}-${++this.count}`,
    );
    await untilReadyOrExited(child, waitForWorker(loadConfig(env)));
    return child;
  }

  /** kill -9: the process gets no chance to finish anything. */
  async crash(child: Supervised): Promise<void> {
    if (child.process.pid !== undefined) process.kill(-child.process.pid, 'SIGKILL');
    await child.exited;
    await this.supervisor.remove(child);
  }

  /**
   * SIGTERM, as an orchestrator stops a replica, with no SIGKILL after it (the test's own timeout bounds
   * the wait): resolves with its exit code once it has exited.
   */
  async stop(child: Supervised): Promise<number | null> {
    if (child.process.pid !== undefined) process.kill(child.process.pid, 'SIGTERM');
    const code = await child.exited;
    await this.supervisor.remove(child);
    return code;
  }

  stopAll(): Promise<void> {
    return this.supervisor.stopAll();
  }
}

/**
 * Waits for `ready`, unless the child exits first: then fails at once with the end of its log (a port
 * taken between freePort and the bind, a bad setting), rather than after the whole wait.
 */
async function untilReadyOrExited(child: Supervised, ready: Promise<void>): Promise<void> {
  let waiting = true;
  const exited = child.exited.then(async (code) => {
    if (!waiting) return;
    const log = await readFile(child.spec.logFile, 'utf8').catch(() => '');
    const tail = log.trimEnd().split('\n').slice(-20).join('\n');
    throw new Error(`${child.spec.name} exited (${code ?? 'killed'}) before it was ready; its log ends:\n${tail}`);
  });
  try {
    await Promise.race([ready, exited]);
  } finally {
    waiting = false;
  }
}

async function waitForHealthz(root: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${root}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`API at ${root} never answered /healthz`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
