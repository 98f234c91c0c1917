// The three task queues a review uses. Its workflow, read-model writes and webhooks are on the configured
// queue: short work, which an integrator's create waits for. Ingest (fetching source URLs, unpacking and
// checking the files, recording the documents) is on the ingest queue beside it, polled with a few slots a
// worker: untrusted files are parsed there, so how many at once is one bound per process. Analyses and
// report renders are on the analysis queue, which each worker polls with as many slots as it has cores:
// however many reviews are analysed at once across organizations, a worker runs no more analyses than it
// can run without making a create wait behind them (docs/operations.md, "Workers and capacity").

/** The ingest queue that goes with a review's task queue (used by workflow code: a pure function). */
export function ingestTaskQueue(taskQueue: string): string {
  return `${taskQueue}-ingest`;
}

/** The analysis queue that goes with a review's task queue (used by workflow code: a pure function). */
export function analysisTaskQueue(taskQueue: string): string {
  return `${taskQueue}-analysis`;
}
