// How many partitions a task queue's new tasks are written to, in the Temporal servers the stack runs.
// Temporal splits every task queue into four partitions by default, and a partition's backlog is matched
// only by the pollers that land on it: an analysis worker, whose few pollers stop while its slots are
// full, found its freed slot polling one partition while older tasks waited in another. In a burst of 20
// creates its slots stood idle 9–18% of the time with tasks waiting, against 1–2% with one partition.
// Partitions spread a queue of thousands of tasks a second over several matching hosts; these servers
// have one. Only writes are set: a server started before keeps reading the tasks it wrote to the other
// partitions (Temporal's order for fewer partitions: writes first, reads once those have drained).
export const ONE_WRITE_PARTITION = { key: 'matching.numTaskqueueWritePartitions', value: 1 } as const;
