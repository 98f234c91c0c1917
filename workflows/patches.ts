// Where the review workflow changed in a way a running review's history would notice, which code a run
// takes. Each change has its patch id (`patched()`), declared beside the code it guards.
import { patched } from '@temporalio/workflow';

/**
 * Patch: a run takes every change there is now, decided once, first thing, before it awaits anything. Its
 * marker is then always in the run's first workflow task, where a replay meets it too. Runs from before it
 * ask for each change where it applies, as they did; a patch asked for there, after a local activity,
 * could be reached a workflow task earlier on replay than it was live, where its marker was not yet known
 * (TMPRL1100). Runs that take it also take local activities' results in schedule order
 * (local-activity-order.ts).
 */
export const DECIDED_AT_START_PATCH = 'changes-decided-at-start';

/**
 * Patch, decided at the start beside DECIDED_AT_START_PATCH: a run has one local activity under way at a
 * time, across all its coroutines (local-activity-order.ts). Runs without its marker keep several at once.
 */
export const ONE_LOCAL_ACTIVITY_PATCH = 'one-local-activity-at-a-time';

let decidedAtStart = false;
let oneLocalActivity = false;

/** Called first thing in a run (review.ts), before it awaits anything. */
export function decideChangesAtStart(): void {
  decidedAtStart = patched(DECIDED_AT_START_PATCH);
  oneLocalActivity = decidedAtStart && patched(ONE_LOCAL_ACTIVITY_PATCH);
}

/** Whether this run schedules a local activity only once the one before it has been handed over. */
export function oneLocalActivityAtATime(): boolean {
  return oneLocalActivity;
}

/** Whether this run decided at its start: it takes every change, and local activities in schedule order. */
export function changesDecidedAtStart(): boolean {
  return decidedAtStart;
}

/** Whether this run takes the change `patchId`: always since DECIDED_AT_START_PATCH; asked where it applies before. */
export function takes(patchId: string): boolean {
  return decidedAtStart || patched(patchId);
}
