// A review has one local activity under way at a time, across all its coroutines: one is scheduled only
// once the one before it, from whichever coroutine, has been handed over. A review has several awaited at
// once (the read model's writes, the pipeline's bookkeeping, a submission's record), each by its own
// coroutine. When a run executes, the worker hands their results over as they finish; when its history is
// replayed (a worker restart, a cache eviction, a query of a closed review), Temporal's core hands them
// over in the order they were scheduled. With two under way, their results could reach the workflow in
// separate tasks when it ran and in one task on replay, and the coroutine resumed first then was not the
// same: other commands, TMPRL1100, and the review's workflow task failing on every retry
// (test/workflow/determinism.test.ts makes such histories and replays them). They are short database
// writes; taking them one by one costs milliseconds.

/** Settles once the last local activity scheduled so far has been handed over, however it ended. */
let handedOver: Promise<unknown> = Promise.resolve();

/** `start()` once every local activity scheduled before has been handed over; its result then. */
function oneAtATime<T>(start: () => Promise<T>): Promise<T> {
  const turn = handedOver.then(start);
  handedOver = turn.catch(() => undefined);
  return turn;
}

type Activity = ((...args: unknown[]) => Promise<unknown>) & { executeWithOptions(options: unknown, args: unknown[]): Promise<unknown> };

/** The same local activities, each scheduled once the one before it has been handed over. */
export function scheduleOrdered<T extends object>(activities: T): T {
  return new Proxy(activities, {
    get(target, name) {
      const activity = Reflect.get(target, name) as Activity | undefined;
      if (typeof activity !== 'function') return activity;
      const ordered = (...args: unknown[]) => oneAtATime(() => activity(...args));
      ordered.executeWithOptions = (options: unknown, args: unknown[]) => oneAtATime(() => activity.executeWithOptions(options, args));
      return ordered;
    },
  });
}
