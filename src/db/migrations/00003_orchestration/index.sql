-- What the review workflow needs beyond the first read model: a log of its transitions (operators and
-- tests read a review's path), fleet-wide analysis slots per organization, per-organization deadlines,
-- and the findings behind each release (the working document answers them by key).

-- Per-organization override of the awaiting_documents deadline; null means the configured default.
alter table organizations
  add column awaiting_documents_seconds integer check (awaiting_documents_seconds > 0);

-- Every internal transition of a review, in order (the reviews row holds only the latest).
create table review_transitions (
  id             bigint generated always as identity primary key,
  review_id      uuid not null references reviews(id),
  internal_state text not null,
  status         text not null,
  detail         text,
  at             timestamptz not null default now()
);
create index review_transitions_review on review_transitions (review_id, id);

-- Analysis slots: at most N reviews of an organization analyse at once, fleet-wide. A row is a review
-- holding a slot, or waiting for one (oldest first). Waiters refresh seen_at each time they ask, so a
-- waiter whose workflow is gone stops blocking those behind it.
create table analysis_slots (
  review_id       uuid primary key references reviews(id),
  organization_id uuid not null references organizations(id),
  holding         boolean not null,
  since           timestamptz not null default now(),
  seen_at         timestamptz not null default now()
);
create index analysis_slots_org on analysis_slots (organization_id, holding, since);

-- The findings of a release with their stable keys (code plus subject), which name the working
-- document's form fields; `issues` stays exactly what the report shows.
alter table releases
  add column findings jsonb not null default '[]';

-- The finding a disposition decided on, by key, so later analyses honour it; and the working document it
-- was read from, so reading the same document again (a retried activity) answers the same.
alter table dispositions
  add column finding_key text,
  add column working_document_key text;
create index dispositions_working_document on dispositions (review_id, working_document_key);
