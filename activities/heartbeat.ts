// Ingest's heartbeat: an activity that heartbeats on a clock while it works, so a worker that dies mid-way
// is noticed within the heartbeat timeout (workflows/activity-options.ts) and the activity runs again on
// another, rather than after its whole start-to-close timeout.
import { Context } from '@temporalio/activity';

/** How often a working activity says it is alive (and hears of a cancellation). */
export const BEAT_MS = 2_000;

export async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), BEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}
