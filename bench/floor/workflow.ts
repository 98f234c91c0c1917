// The orchestrator's floor for a create (bench/create-burst.ts): the least a create through a workflow
// can cost on this Temporal server, an update-with-start of a workflow whose update runs one local
// activity and answers. Bundled by the benchmark's own worker; nothing of the service runs here.
import { condition, defineUpdate, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type * as activities from './activities.js';

export const takeUpdate = defineUpdate<string, [string]>('take');

const { touch } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '30 seconds' });

export async function floorWorkflow(): Promise<void> {
  let answered = false;
  setHandler(takeUpdate, async (id) => {
    const result = await touch(id);
    answered = true;
    return result;
  });
  await condition(() => answered);
}
