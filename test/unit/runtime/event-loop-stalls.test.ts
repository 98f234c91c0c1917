// A blocked event loop is logged with how long it was held; a loop that keeps turning logs nothing.
// Serial: a block in one test would be a block for the watcher of another.
import test from 'ava';
import { watchEventLoopStalls } from '../../../src/runtime/event-loop-stalls.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function block(ms: number): void {
  for (const until = performance.now() + ms; performance.now() < until; );
}

test.serial('a block of the loop longer than the threshold is logged once, with its length', async (t) => {
  const lines: string[] = [];
  const stop = watchEventLoopStalls((line) => lines.push(line), 200, 20);
  t.teardown(stop);
  await sleep(50);
  block(600);
  await sleep(100);
  t.is(lines.length, 1, lines.join('\n'));
  const seconds = Number(/blocked for ([\d.]+) s/.exec(lines[0]!)?.[1]);
  // At least the block itself (a loaded machine may only add to it).
  t.true(seconds >= 0.5, lines[0]);
});

test.serial('short turns and idle waits are not blocks', async (t) => {
  const lines: string[] = [];
  const stop = watchEventLoopStalls((line) => lines.push(line), 400, 20);
  t.teardown(stop);
  for (let i = 0; i < 5; i++) {
    block(30);
    await sleep(30);
  }
  await sleep(300);
  t.deepEqual(lines, []);
});
