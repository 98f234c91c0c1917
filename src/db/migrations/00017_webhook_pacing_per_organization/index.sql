-- Delivery attempts are paced per organization and host (src/db/webhook-host-pacing.ts): each organization's
-- deliveries to a host wait only behind its own, so one tenant cannot slow another's. The table is unlogged
-- and holds only schedules, nothing else refers to it, and a schedule lost only lets one second's burst
-- through early: it is dropped and made afresh rather than migrated.
drop table if exists webhook_host_pacing;
create unlogged table webhook_host_pacing (
  organization_id uuid not null,
  host            text not null,
  next_at         timestamptz not null,
  primary key (organization_id, host)
);
