-- A submission's documents as ingest found them (hashed, under temporary keys) until the workflow has
-- them recorded: the ingest activity returns the submission's id, and the recording activity reads the
-- list here (workflow history holds ids, not data). A row is read again by a retried recording, so it is
-- not deleted with it; rows expire after a day, as the staged objects they name do.
create table ingested_submissions (
  id          uuid primary key,
  -- No reference: a create's review row is written from this very row.
  review_id   uuid not null,
  documents   jsonb not null,
  staged      jsonb not null,
  created_at  timestamptz not null default now()
);
create index ingested_submissions_created on ingested_submissions (created_at);
