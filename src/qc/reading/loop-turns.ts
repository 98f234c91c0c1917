// Long pixel work on the worker's main thread (evening out paper, finding check boxes) gives the event
// loop a turn every few milliseconds: a loop held for hundreds of milliseconds delays the activity's
// heartbeats, Temporal's workflow tasks and every other analysis in the process.

/** Time on the main thread between two turns of the event loop. */
const SLICE_MS = 15;

/**
 * A function to await inside a long loop: it resolves at once until the slice is used up, then after
 * one turn of the event loop (setImmediate: timers and I/O run first).
 */
export function loopTurns(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStart = performance.now();
        resolve();
      }),
    );
  };
}
