// Replays the committed histories of real review-workflow runs (test/histories/, recorded with
// `npm run histories:record`) against today's workflow code, with one bundle: a change that would break
// a running review (a non-deterministic change without `patched()`) fails here.
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';

// Only problems from the replay worker; its lifecycle lines would drown the suite's output.
Runtime.install({ logger: new DefaultLogger('WARN') });

const folder = new URL('./histories/', import.meta.url);
const REQUIRED = ['amendment', 'create-awaiting-add-completed', 'create-completed', 'failure', 'sandbox'];

test('every recorded history replays against the current workflow code', async (t) => {
  const names = (await readdir(folder)).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  for (const required of REQUIRED) t.true(names.includes(required), `history ${required} is recorded`);
  const histories = await Promise.all(
    names.map(async (name) => ({ workflowId: name, history: historyFromJSON(JSON.parse(await readFile(new URL(`${name}.json`, folder), 'utf8'))) })),
  );
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
    logger: { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  const results: Record<string, string> = {};
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    results[result.workflowId] = result.error ? `${result.error.name}: ${result.error.message}` : 'ok';
  }
  t.deepEqual(results, Object.fromEntries(names.map((n) => [n, 'ok'])));
});
