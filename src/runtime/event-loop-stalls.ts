// A process whose event loop is blocked answers nothing meanwhile: the API no request, the worker no
// workflow task (a create waits for its workflow's first task, so a long block turns into a 503). Such a
// block is logged with its length, so that an operator reading a slow answer finds its cause beside it.
import type { Logger } from '../telemetry/logger.js';

/** How often the loop is looked at; a block is measured to within this. */
const TICK_MS = 250;

/**
 * Logs each time the event loop was held for at least `thresholdMs` without a turn. The check is one
 * unreferenced timer: it keeps no process alive and costs a few microseconds a tick.
 */
export function watchEventLoopStalls(log: Logger, thresholdMs = 1_000, tickMs = TICK_MS): () => void {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const blocked = now - last - tickMs;
    last = now;
    if (blocked >= thresholdMs)
      log.warn(`the event loop was blocked for ${(blocked / 1000).toFixed(1)} s: nothing was answered meanwhile`);
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
