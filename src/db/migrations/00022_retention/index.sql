-- An organization's retention: its reviews are deleted this many days after they came to rest (their
-- report released, or failed); null keeps them until deleted. The index finds an organization's reviews at
-- rest, oldest first, without reading the others.
alter table organizations add column retention_days integer check (retention_days > 0);
create index reviews_at_rest on reviews (organization_id, updated_at, id)
  where internal_state in ('released', 'failed');
