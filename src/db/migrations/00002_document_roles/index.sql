-- A review's documents are evidence, or a working document (a filled report) answering one of its
-- releases. Working documents are kept like any upload but are not counted as documents of the review.
alter table documents
  add column role text not null default 'evidence' check (role in ('evidence', 'working_document')),
  -- The release a working document was issued for (verified by its marker; not a foreign key, so a
  -- document is never refused because of what happened to a release row).
  add column answers_release_id uuid,
  add check ((role = 'working_document') = (answers_release_id is not null));
