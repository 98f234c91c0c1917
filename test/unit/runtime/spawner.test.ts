// The worker starts its child processes (native tesseract) by way of a small helper process (spawner.ts),
// so that a start does not fork the worker's gigabyte: each is a child of the helper, with its output,
// exit status and kill as a child of this process would have them.
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { spawnerPid, spawnProcess, stopSpawner } from '../../../src/runtime/spawner.js';
import { statFieldsAfterCommand } from '../../../src/runtime/proc-stat.js';

test.after.always(() => stopSpawner());

const collect = () => {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  return {
    listeners: {
      stdout: (c: Uint8Array) => out.push(Buffer.from(c)),
      stderr: (c: Uint8Array) => err.push(Buffer.from(c)),
    },
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
};

/** A process's parent pid and nice value (Linux /proc). */
async function statOf(pid: number): Promise<{ ppid: number; nice: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = statFieldsAfterCommand(stat);
  return { ppid: Number(fields[1]), nice: Number(fields[16]) };
}

test.serial(
  'a process is started by the helper, not by this process, and gives its output and exit status',
  async (t) => {
    const output = collect();
    const env = { PATH: process.env.PATH, GREETING: 'hello' };
    const child = await spawnProcess(
      'sh',
      ['-c', 'echo "$GREETING"; echo oops >&2; sleep 0.2; exit 3'],
      env,
      output.listeners,
    );
    const helper = await spawnerPid();
    t.truthy(helper);
    t.not(helper, process.pid);
    t.is((await statOf(child.pid)).ppid, helper!);
    t.deepEqual(await child.closed, { code: 3, signal: null });
    t.is(output.stdout(), 'hello\n');
    t.is(output.stderr(), 'oops\n');
  },
);

test.serial('a kill ends the process with SIGKILL; a background process runs at the lower priority', async (t) => {
  const child = await spawnProcess('sleep', ['30'], { PATH: process.env.PATH }, collect().listeners, {
    background: true,
  });
  t.is((await statOf(child.pid)).nice, 10);
  child.kill();
  t.deepEqual(await child.closed, { code: null, signal: 'SIGKILL' });
});

test.serial('a binary that does not exist is refused with ENOENT, and the helper starts the next one', async (t) => {
  const err = await t.throwsAsync(
    spawnProcess('no-such-binary-here', [], { PATH: process.env.PATH }, collect().listeners),
  );
  t.is((err as NodeJS.ErrnoException).code, 'ENOENT');
  const child = await spawnProcess('true', [], { PATH: process.env.PATH }, collect().listeners);
  t.deepEqual(await child.closed, { code: 0, signal: null });
});

test.serial('a helper that dies fails what it was running, and the next process starts a new helper', async (t) => {
  const running = await spawnProcess('sleep', ['30'], { PATH: process.env.PATH }, collect().listeners);
  const first = await spawnerPid();
  process.kill(first!, 'SIGKILL');
  await t.throwsAsync(running.closed, { message: /helper exited/ });
  // Its child is killed with it where the helper can (a disconnect), or left to finish; never waited on here.
  const next = await spawnProcess('true', [], { PATH: process.env.PATH }, collect().listeners);
  t.not(await spawnerPid(), first);
  t.deepEqual(await next.closed, { code: 0, signal: null });
  process.kill(running.pid, 'SIGKILL');
});

test.serial('output of many megabytes comes whole and in order', async (t) => {
  const output = collect();
  const child = await spawnProcess('sh', ['-c', 'seq 1 1000000'], { PATH: process.env.PATH }, output.listeners);
  t.deepEqual(await child.closed, { code: 0, signal: null });
  const lines = output.stdout().trimEnd().split('\n');
  t.is(lines.length, 1_000_000);
  t.is(lines[0], '1');
  t.is(lines[999_999], '1000000');
});

test.serial('stopping the helper stops what it runs', async (t) => {
  const running = await spawnProcess('sleep', ['30'], { PATH: process.env.PATH }, collect().listeners);
  await stopSpawner();
  await t.throwsAsync(running.closed, { message: /helper exited/ });
  // Gone, or a zombie of the exited helper on its way to init.
  const stat = await readFile(`/proc/${running.pid}/stat`, 'utf8').catch(() => '');
  t.true(stat === '' || / Z /.test(stat), stat);
});
