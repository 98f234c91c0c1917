-- Every event the service announces, recorded as it is announced (endpoints or none): what
-- GET /v1/events lists for reconciliation, and what a delivery (first or sent again) reads its payload from.
create table events (
  id              uuid primary key,
  organization_id uuid not null references organizations(id),
  sandbox         boolean not null,
  review_id       uuid not null references reviews(id),
  type            text not null check (type in ('review.completed', 'review.amended', 'review.failed')),
  -- The release announced; null for review.failed.
  release_id      uuid references releases(id),
  occurred_at     timestamptz not null,
  recorded_at     timestamptz not null default now()
);
-- An organization's events of one mode newest first, all of them, of one type, or of one review.
create index events_listing on events (organization_id, sandbox, occurred_at desc, id desc);
create index events_by_type on events (organization_id, sandbox, type, occurred_at desc, id desc);
create index events_by_review on events (review_id, occurred_at desc, id desc);

-- Every delivery attempt is of a recorded event.
alter table webhook_deliveries alter column event_id set not null,
  add constraint webhook_deliveries_event foreign key (event_id) references events(id);
