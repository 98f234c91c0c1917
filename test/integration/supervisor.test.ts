// The local stack's supervisor (`npm start`): a process that dies is restarted with backoff, one that keeps
// dying at once is given up on (its exit reported with its code or signal), stopping the stack stops a
// restart that is pending, and a step of starting (a probe, an install, a build) is killed with whatever
// it started.
import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, Supervisor, type RestartPolicy } from '../../scripts/stack/supervisor.js';

// A run counts as a fast failure when it ends within healthyMs of its start: a minute, because a loaded
// machine can take seconds to start `node -e`, and a crasher counted healthy would be restarted forever.
const POLICY: RestartPolicy = { healthyMs: 60_000, maxFastFailures: 3, firstDelayMs: 50, maxDelayMs: 200 };
const dir = mkdtempSync(join(tmpdir(), 'supervisor-test-'));
const node = (name: string, script: string) => ({
  name,
  command: process.execPath,
  args: ['-e', script],
  logFile: join(dir, `${name}.log`),
});

test('a child killed with -9 is started again, in the same Supervised, and the restart is reported', async (t) => {
  const supervisor = new Supervisor(POLICY);
  const restarts: (number | null)[] = [];
  supervisor.onRestart = (_child, code) => restarts.push(code);
  const gaveUp: string[] = [];
  supervisor.onUnexpectedExit = (child) => gaveUp.push(child.spec.name);
  const child = supervisor.start(node('sleeper', 'setInterval(() => {}, 1000)'));
  const first = child.process.pid!;
  process.kill(first, 'SIGKILL');
  await child.exited;
  await new Promise((r) => setTimeout(r, 400));
  t.true(child.running());
  t.not(child.process.pid, first);
  t.deepEqual(restarts, [null]);
  t.deepEqual(gaveUp, []);
  await supervisor.stopAll();
  t.false(child.running());
});

test(
  "a child that keeps failing at once is given up on after the policy's fast failures, with " + 'backoff between',
  async (t) => {
    const supervisor = new Supervisor(POLICY);
    const delays: number[] = [];
    supervisor.onRestart = (_child, _code, delay) => delays.push(delay);
    const gaveUp = new Promise<number | null>((resolve) => {
      supervisor.onUnexpectedExit = (_child, code) => resolve(code);
    });
    supervisor.start(node('crasher', 'console.log("boom"); process.exit(3)'));
    t.is(await gaveUp, 3);
    t.deepEqual(delays, [50, 100]);
    // Each run's output reaches its log (written as it comes; the last run's a moment after its exit).
    const runs = () => (readFileSync(join(dir, 'crasher.log'), 'utf8').match(/boom/g) ?? []).length;
    for (let i = 0; i < 20 && runs() < 3; i++) await new Promise((r) => setTimeout(r, 50));
    t.is(runs(), 3, 'three runs, logged');
    await supervisor.stopAll();
  },
);

test(
  'without a restart policy (tests) an exit is reported at once; stopping the stack cancels a ' + 'pending restart',
  async (t) => {
    const plain = new Supervisor();
    const reports: string[] = [];
    let reported = () => {};
    plain.onUnexpectedExit = (child, code, signal) => {
      reports.push(`${child.spec.name} ${code ?? signal}`);
      reported();
    };
    const twoReports = new Promise<void>((resolve) => {
      reported = () => reports.length === 2 && resolve();
    });
    plain.start(node('once', 'process.exit(1)'));
    // A process's own fatal error ends it by a signal, which is reported as such (npm test names crashes).
    plain.start(node('aborts', 'process.abort()'));
    await twoReports;
    t.deepEqual(reports.sort(), ['aborts SIGABRT', 'once 1']);
    await plain.stopAll();

    const slow = new Supervisor({ ...POLICY, firstDelayMs: 500 });
    let restarted = false;
    const child = slow.start(node('sleeper2', 'setInterval(() => {}, 1000)'));
    process.kill(child.process.pid!, 'SIGKILL');
    await child.exited;
    await slow.stopAll();
    const pid = child.process.pid;
    await new Promise((r) => setTimeout(r, 700));
    restarted = child.process.pid !== pid || child.running();
    t.false(restarted, 'no process started after the stack was stopped');
  },
);

/** Whether a process of this pid exists (a zombie counts: its parent has not reaped it). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test(
  'stopping the stack while a step of starting runs a command kills the command and what it ' +
    'started, and waits for them',
  async (t) => {
    const supervisor = new Supervisor(POLICY);
    // A command that starts a grandchild and waits for it, as go install waits for its compilers.
    const pids = join(dir, 'step.pids');
    const step = supervisor.step((signal) => run('sh', ['-c', `sleep 60 & echo $$ $! > ${pids}; wait`], { signal }));
    let started: number[] = [];
    for (let i = 0; i < 100 && started.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      started = (() => {
        try {
          return readFileSync(pids, 'utf8').trim().split(' ').map(Number);
        } catch {
          return [];
        }
      })();
    }
    t.is(started.length, 2, 'the command and its child are running');
    const stoppedAt = Date.now();
    await supervisor.stopAll();
    t.true(Date.now() - stoppedAt < 10_000, 'the step was killed, not waited out');
    await t.throwsAsync(step, { message: /the stack is stopping/ });
    t.false(exists(started[0]!), 'the command is gone (and reaped) once stopAll returns');
    // The grandchild was reparented to init by the kill: it is reaped a moment later, not by us.
    for (let i = 0; i < 40 && exists(started[1]!); i++) await new Promise((r) => setTimeout(r, 50));
    t.false(exists(started[1]!), "the command's own child is gone too");
    await t.throwsAsync(
      supervisor.step(async () => 'never'),
      { message: /the stack is stopping/ },
      'a stopped stack begins no step',
    );
  },
);

test('a command run for a step that fails says its exit and output', async (t) => {
  await t.throwsAsync(run('sh', ['-c', 'echo no such package >&2; exit 100']), {
    message: /exited with 100:\nno such package/,
  });
});
