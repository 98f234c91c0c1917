-- What stays of a deleted review: that it was, whose it was, who asked for its deletion and when. Its
-- documents, reports, rows and workflow history are gone.
create table review_deletions (
  review_id       uuid primary key,
  organization_id uuid not null references organizations(id),
  sandbox         boolean not null,
  reference_id    text,
  -- The API key that asked (its id, never the key).
  requested_by    text not null,
  requested_at    timestamptz not null,
  completed_at    timestamptz not null default now()
);
create index review_deletions_organization on review_deletions (organization_id, completed_at desc);
