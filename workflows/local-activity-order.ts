// Local activities' results are taken in the order the activities were scheduled. A review has several
// under way at once (the read model's writes, the pipeline's bookkeeping, a submission's record), each
// awaited by its own coroutine. When a run executes, the worker hands their results over as they finish;
// when its history is replayed (a worker restart, a cache eviction, a query of a closed review), Temporal's
// core hands them over in the order they were scheduled (SDK 1.24). Two that finished in the other order
// within one workflow task resumed their coroutines in another order on replay, whose commands then no
// longer matched the history: TMPRL1100, and the review's workflow task failing on every retry.
// Holding each result until every earlier one has been handed over makes the order the same both ways
// (test/workflow/determinism.test.ts makes such histories and replays them). It does not cover a result
// the worker resumes a workflow task late, beside an update that arrived meanwhile (docs/development.md,
// "Workflow changes and replay"). Runs from before DECIDED_AT_START_PATCH take the results as they come: their
// histories were made so.
//
// Runs that take ONE_LOCAL_ACTIVITY_PATCH go further: a local activity is scheduled only once the one
// before it, from whichever coroutine, has been handed over, so no two are ever under way together. A
// create or add-documents update and the main loop both record through local activities; with two under
// way, their results could reach the workflow in separate tasks when it ran and in one task on replay,
// and the coroutine resumed first then was not the same (determinism.test.ts caught an update completing
// after the main loop scheduled its analysis on replay, before it when it ran: TMPRL1100). They are short
// database writes; taking them one by one costs milliseconds.
import { changesDecidedAtStart, oneLocalActivityAtATime } from './patches.js';

/** Settles once the last result taken so far has been handed over, however it ended. */
let handedOver: Promise<unknown> = Promise.resolve();

/** The result of a local activity just scheduled, handed over only after those scheduled before it. */
function inScheduleOrder<T>(result: Promise<T>): Promise<T> {
  if (!changesDecidedAtStart()) return result;
  const turn = handedOver.then(() => result);
  handedOver = turn.catch(() => undefined);
  return turn;
}

/** `start()` once every local activity scheduled before has been handed over; its result then. */
function oneAtATime<T>(start: () => Promise<T>): Promise<T> {
  const turn = handedOver.then(start);
  handedOver = turn.catch(() => undefined);
  return turn;
}

/** A local activity scheduled as this run decided: one at a time, or at once with its result in order. */
function scheduled<T>(start: () => Promise<T>): Promise<T> {
  return oneLocalActivityAtATime() ? oneAtATime(start) : inScheduleOrder(start());
}

type Activity = ((...args: unknown[]) => Promise<unknown>) & { executeWithOptions(options: unknown, args: unknown[]): Promise<unknown> };

/** The same local activities, one at a time or their results in schedule order, as the run decided. */
export function scheduleOrdered<T extends object>(activities: T): T {
  return new Proxy(activities, {
    get(target, name) {
      const activity = Reflect.get(target, name) as Activity | undefined;
      if (typeof activity !== 'function') return activity;
      const ordered = (...args: unknown[]) => scheduled(() => activity(...args));
      ordered.executeWithOptions = (options: unknown, args: unknown[]) => scheduled(() => activity.executeWithOptions(options, args));
      return ordered;
    },
  });
}
