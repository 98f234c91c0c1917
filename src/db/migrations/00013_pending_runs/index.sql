-- A review the API recorded itself (a small live create) has its workflow run started after the answer:
-- run_pending_since is set until that start is confirmed. Any API process starts the runs still pending a
-- while later (src/db/reviews.ts, pendingRuns), so a review recorded by a process that died before starting
-- its run, or while Temporal was unreachable, is started all the same. Null for every other review.
alter table reviews add column run_pending_since timestamptz;
create index reviews_run_pending on reviews (run_pending_since) where run_pending_since is not null;
