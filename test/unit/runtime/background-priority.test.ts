// A worker that only analyses yields the CPU to everything else on the machine (background-priority.ts).
// Linux shares the CPU between sessions (autogroups, sched(7)) before it weighs threads' nice values
// within one, and the stack starts every service in a session of its own: there, lowering the threads
// alone would leave the worker an equal share beside the API and Temporal. These read what the kernel
// schedules by, from /proc, in a child that lowers itself as the analysis worker does.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import test from 'ava';
import { BACKGROUND_NICE, lowerSessionGroup } from '../../../src/runtime/background-priority.js';
import { statFieldsAfterCommand } from '../../../src/runtime/proc-stat.js';

const MODULE = new URL('../../../src/runtime/background-priority.ts', import.meta.url).href;

/**
 * The session group's nice value ("/autogroup-42 nice 10"). The file is empty for a process in the
 * machine's first session (init's, where a CI runner may sit: its group is the root group, which has no
 * nice value of its own) and absent where the kernel has no autogroups: null for both.
 */
async function groupNice(pid: number | 'self'): Promise<number | null> {
  const line = await readFile(`/proc/${pid}/autogroup`, 'utf8').catch(() => '');
  const nice = /nice (-?\d+)/.exec(line);
  return nice === null ? null : Number(nice[1]);
}

/** The nice value of every thread of the process. */
async function threadNices(pid: number): Promise<number[]> {
  const tids = await readdir(`/proc/${pid}/task`);
  return Promise.all(
    tids.map(async (tid) => {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(statFieldsAfterCommand(stat)[16]);
    }),
  );
}

/** Starts a node process that lowers its own priority, then waits; resolves once it has. */
async function loweredProcess(o: { ownSession: boolean }) {
  const code = `import(${JSON.stringify(MODULE)}).then((m) => { m.lowerThisProcessPriority(); console.log('lowered'); setInterval(() => {}, 1000); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
    detached: o.ownSession,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [data] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!data.toString().includes('lowered')) throw new Error(`unexpected output: ${data.toString()}`);
  return child;
}

const autogroups = await readFile('/proc/self/autogroup', 'utf8').then(
  () => true,
  () => false,
);
const linux = process.platform === 'linux' && autogroups;
const onLinux = linux ? test.serial : test.serial.skip;

onLinux(
  'a worker in a session of its own lowers every thread and its session group to the readers’ nice',
  async (t) => {
    const child = await loweredProcess({ ownSession: true });
    try {
      t.is(await groupNice(child.pid!), BACKGROUND_NICE);
      t.deepEqual([...new Set(await threadNices(child.pid!))], [BACKGROUND_NICE]);
    } finally {
      child.kill('SIGKILL');
    }
  },
);

onLinux(
  'a worker in a session shared with other work lowers its threads, and leaves the session group alone',
  async (t) => {
    const before = await groupNice('self');
    const child = await loweredProcess({ ownSession: false });
    try {
      t.deepEqual([...new Set(await threadNices(child.pid!))], [BACKGROUND_NICE]);
      t.is(await groupNice(child.pid!), before);
      t.is(await groupNice('self'), before);
    } finally {
      child.kill('SIGKILL');
    }
  },
);

onLinux(
  'a launcher lowers the session group of a process it started in a session of its own, before that process runs code of its own',
  async (t) => {
    const before = await groupNice('self');
    const own = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const shared = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      lowerSessionGroup(own.pid!);
      t.is(await groupNice(own.pid!), BACKGROUND_NICE);
      // One that leads no session of its own shares the launcher's group: that is left alone.
      lowerSessionGroup(shared.pid!);
      t.is(await groupNice(shared.pid!), before);
      t.is(await groupNice('self'), before);
    } finally {
      own.kill('SIGKILL');
      shared.kill('SIGKILL');
    }
  },
);
