-- Every create starts its review's workflow run (update-with-start) before the review is recorded, so no
-- review waits for its run to be started: the pending-run columns of 00013 and 00014 go.
drop index if exists reviews_run_pending;
alter table reviews drop column if exists run_pending_since;
alter table reviews drop column if exists run_pending_queue;
