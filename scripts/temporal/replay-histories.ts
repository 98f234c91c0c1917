// Replays workflow histories (JSON as `temporal workflow show --output json` writes it, or as
// test/histories/ holds them) against today's workflow code: the workers' own bundles, plain and traced
// (worker/workflow-bundle.ts), each. A history whose commands today's code would not make again (a change
// not guarded by a patch) comes back with its error.
import { readFile } from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { ensureWorkflowBundle, type BundleKind } from '../../worker/workflow-bundle.js';
import { loadConfig } from '../../src/config.js';
import { temporalDataConverter } from '../../src/temporal/connection.js';
import { workflowSpanSinks } from '../../src/telemetry/workflow-spans.js';

/** Each history file's result: 'ok', or the replay error's name and message. */
export async function replayHistories(files: readonly URL[]): Promise<Map<URL, string>> {
  const histories = await Promise.all(
    files.map(async (file) => ({
      workflowId: file.href,
      history: historyFromJSON(JSON.parse(await readFile(file, 'utf8'))),
    })),
  );
  const results = new Map<URL, string>(files.map((f) => [f, 'ok']));
  // Histories exported from a deployment hold sealed payloads: opened with the keys of this environment.
  const dataConverter = temporalDataConverter(loadConfig(process.env));
  for (const kind of ['plain', 'traced'] satisfies BundleKind[]) {
    const workflowBundle = { codePath: (await ensureWorkflowBundle(kind)).path };
    for await (const result of Worker.runReplayHistories(
      { workflowBundle, dataConverter, sinks: workflowSpanSinks(undefined) },
      histories,
    )) {
      const file = files.find((f) => f.href === result.workflowId)!;
      if (result.error && results.get(file) === 'ok')
        results.set(file, `${result.error.name}: ${result.error.message} (the ${kind} bundle)`);
    }
  }
  return results;
}
