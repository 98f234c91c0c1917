// A worker that only analyses lowers its own priority, and where the kernel groups tasks by session
// (autogroup) its session's too, when the session is its own: otherwise its nice value would weigh only
// against its own threads, and it would take an equal share of the CPU beside the API and the review
// worker. A worker started inside someone else's session (a shell's) leaves that session's group alone.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_NICE } from '../../../src/runtime/background-priority.js';

const moduleUrl = new URL('../../../src/runtime/background-priority.ts', import.meta.url).href;
const autogroups = existsSync('/proc/self/autogroup');

/** A node process (own session or ours) that lowers its priority, then says its nice and its autogroup's. */
async function lowered(ownSession: boolean): Promise<{ nice: number; autogroupNice: number | null }> {
  const script =
    `const { lowerThisProcessPriority } = await import(${JSON.stringify(moduleUrl)});` +
    `const { getPriority } = await import('node:os'); const { readFileSync, existsSync } = await import('node:fs');` +
    `lowerThisProcessPriority();` +
    `const group = existsSync('/proc/self/autogroup') ? readFileSync('/proc/self/autogroup', 'utf8') : null;` +
    `console.log(JSON.stringify({ nice: getPriority(), autogroupNice: group && Number(/nice (-?\\d+)/.exec(group)[1]) }));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    detached: ownSession,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await once(child, 'exit');
  return JSON.parse(out) as { nice: number; autogroupNice: number | null };
}

const ourAutogroupNice = () =>
  autogroups ? Number(/nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))![1]) : null;

test('a process leading its own session lowers its threads and, where there are autogroups, its session', async (t) => {
  const { nice, autogroupNice } = await lowered(true);
  t.is(nice, BACKGROUND_NICE);
  t.is(autogroupNice, autogroups ? BACKGROUND_NICE : null);
});

test("a process inside another's session lowers its threads and leaves that session's group as it was", async (t) => {
  const before = ourAutogroupNice();
  const { nice, autogroupNice } = await lowered(false);
  t.is(nice, BACKGROUND_NICE);
  t.is(autogroupNice, before);
  t.is(ourAutogroupNice(), before);
});
