-- Delivery attempts to one webhook host are paced across every worker: next_at is the host's schedule
-- (src/db/webhook-host-pacing.ts). Unlogged: after a crash the schedule starts afresh, which only lets one
-- second's burst through early.
create unlogged table webhook_host_pacing (
  host text primary key,
  next_at timestamptz not null
);
