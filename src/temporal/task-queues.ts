// The two task queues a review uses. Its workflow, ingest, read-model writes and webhooks are on the
// configured queue: latency work, which an integrator's create waits for. Analyses and report renders are
// on the analysis queue beside it, which each worker polls with as many slots as it has cores: however
// many reviews are analysed at once across organizations, a worker runs no more analyses than it can
// run without making a create wait behind them (docs/operations.md, "Workers and capacity").

/** The analysis queue that goes with a review's task queue (used by workflow code: a pure function). */
export function analysisTaskQueue(taskQueue: string): string {
  return `${taskQueue}-analysis`;
}
