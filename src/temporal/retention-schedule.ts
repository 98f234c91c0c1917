// The Temporal Schedule that starts the retention's sweep (workflows/retention.ts) every hour, one at a
// time: a sweep still running when the next is due lets it pass. Made by the worker that runs the review
// workflows when it starts, and set again to this definition if it exists (one per task queue, so that
// a deployment on another queue has its own). Operators pause, trigger or inspect it in the Temporal UI.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { retentionWorkflow } from '../../workflows/retention.js';

export function retentionScheduleId(taskQueue: string): string {
  return `review-retention-${taskQueue}`;
}

function retentionSchedule(taskQueue: string) {
  return {
    scheduleId: retentionScheduleId(taskQueue),
    spec: { intervals: [{ every: '1 hour' }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'retentionWorkflow',
      workflowId: `review-retention-${taskQueue}`,
      taskQueue,
      staticSummary: "Delete the reviews past their organization's retention",
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
  } satisfies ScheduleOptions;
}

/** Creates the schedule, or sets the one there to this definition; whether it was created. */
export async function ensureRetentionSchedule(temporal: Client, taskQueue: string): Promise<boolean> {
  const schedule = retentionSchedule(taskQueue);
  try {
    await temporal.schedule.create<typeof retentionWorkflow>({
      ...schedule,
      state: { note: 'Made by the review worker; it sets this definition again when it starts.' },
    });
    return true;
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await temporal.schedule.getHandle(schedule.scheduleId).update<typeof retentionWorkflow>((previous) => ({
    ...previous,
    spec: schedule.spec,
    action: schedule.action,
    policies: schedule.policies,
  }));
  return false;
}
