-- The findings of an analysis, kept as a draft of the release they are for: the workflow passes the
-- draft's id to the render and the publication, never the findings themselves (workflow history holds
-- ids, not data). Publishing a release turns its draft into the release row and drops the review's drafts.
create table release_drafts (
  id          uuid primary key,
  review_id   uuid not null references reviews(id),
  findings    jsonb not null,
  created_at  timestamptz not null default now()
);
create index release_drafts_review on release_drafts (review_id);
