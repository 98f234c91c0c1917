// Dynamic configuration of the Temporal servers the stack runs (the dev server, the test cluster) and of
// docker-compose.yml's (deploy/temporal/dynamic-config.yaml); docs/operations.md#temporal-server-settings.

// How many partitions a task queue's new tasks are written to. Temporal splits every task queue into four
// partitions by default, and a partition's backlog is matched only by the pollers that land on it: an
// analysis worker, whose few pollers stop while its slots are full, found its freed slot polling one
// partition while older tasks waited in another. In a burst of 20 creates its slots stood idle 9–18% of
// the time with tasks waiting, against 1–2% with one partition. Partitions spread a queue of thousands of
// tasks a second over several matching hosts; these servers have one. Only writes are set: a server
// started before keeps reading the tasks it wrote to the other partitions (Temporal's order for fewer
// partitions: writes first, reads once those have drained).
export const ONE_WRITE_PARTITION = { key: 'matching.numTaskqueueWritePartitions', value: 1 } as const;

// Eager activity dispatch: an activity a workflow task schedules on its own task queue (the review
// workflow's bookkeeping, its webhooks) is handed to the worker that completed the task, in the answer to
// that completion, when the worker has a slot free; without it the activity goes through the matching
// service and waits for a poll. A review's run is a chain of such activities, each a round less. The
// SDK asks for it by default; the server's default is off.
export const EAGER_ACTIVITIES = { key: 'system.enableActivityEagerExecution', value: true } as const;

// How often the history service records how far its transfer queue has been processed (Temporal's default
// is every 30 s). A run's deletion (a deleted review's histories) waits until the run's closing task is
// behind that mark, and is retried with a growing backoff until it is: deleted at once after the run
// closed, a history stayed 80–190 s with the default, 1–5 s with every second. The mark is one small write
// a second per history shard.
export const PROMPT_TRANSFER_ACKS = { key: 'history.transferProcessorUpdateAckInterval', value: '1s' } as const;

/** Every setting above, as the servers are given them. */
export const SERVICE_DYNAMIC_CONFIG = [ONE_WRITE_PARTITION, EAGER_ACTIVITIES, PROMPT_TRANSFER_ACKS] as const;
