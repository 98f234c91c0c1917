-- The task queue a pending run starts on: that of the API process that recorded the review. Any API process
-- starts a pending run, whatever queue it serves itself, on the review's own queue.
alter table reviews add column run_pending_queue text;
