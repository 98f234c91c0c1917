-- The read model and the bookkeeping of the service. Temporal owns review state; these tables are what the
-- API serves and what must hold fleet-wide (keys, idempotency, rate limits).

create table organizations (
  id                      uuid primary key,
  name                    text not null,
  -- Per-organization overrides; null means the configured default.
  rate_limit_per_minute   integer check (rate_limit_per_minute > 0),
  max_concurrent_analyses integer check (max_concurrent_analyses > 0),
  release_policy          text not null default 'auto' check (release_policy in ('auto', 'hold')),
  created_at              timestamptz not null default now()
);

create table api_keys (
  id              uuid primary key,
  -- Null for a key that is valid but bound to no organization (403 org_unbound).
  organization_id uuid references organizations(id),
  -- The first characters of the key, shown in listings so an operator can tell keys apart.
  prefix          text not null,
  -- SHA-256 of the whole key; the key itself is never stored.
  key_hash        bytea not null unique check (octet_length(key_hash) = 32),
  sandbox         boolean not null,
  label           text not null default '',
  created_at      timestamptz not null default now(),
  expires_at      timestamptz,
  revoked_at      timestamptz
);
create index api_keys_organization on api_keys (organization_id);

create table reviews (
  id               uuid primary key,
  organization_id  uuid not null references organizations(id),
  sandbox          boolean not null,
  status           text not null check (status in ('queued', 'awaiting_documents', 'processing', 'completed', 'failed')),
  internal_state   text not null,
  review_type      text not null,
  label            text,
  reference_id     text,
  metadata         jsonb,
  document_count   integer not null default 0,
  report_available boolean not null default false,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
-- Race-safe uniqueness of reference_id per organization (nulls never collide).
create unique index reviews_reference_id on reviews (organization_id, reference_id);
-- Newest-first listing with keyset pagination.
create index reviews_listing on reviews (organization_id, created_at desc, id desc);

create table documents (
  id              uuid primary key,
  review_id       uuid not null references reviews(id),
  sha256          text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes      bigint not null check (size_bytes > 0),
  object_key      text not null,
  filename        text not null,
  declared_type   text,
  detected_type   text not null,
  -- Where it came from: an upload part, a signed URL, or a member of an uploaded package.
  source          text not null check (source in ('upload', 'url', 'archive_member')),
  source_detail   text,
  document_class  text,
  created_at      timestamptz not null default now(),
  unique (review_id, sha256)
);

create table releases (
  id                uuid primary key,
  review_id         uuid not null references reviews(id),
  sequence          integer not null check (sequence > 0),
  outcome           text not null,
  summary           jsonb not null,
  issues            jsonb not null,
  report_object_key text not null,
  generated_at      timestamptz not null,
  unique (review_id, sequence)
);

create table dispositions (
  id              uuid primary key,
  review_id       uuid not null references reviews(id),
  release_id      uuid references releases(id),
  finding         text not null,
  decision        text not null,
  outcome         text not null check (outcome in ('applied', 'skipped', 'failed')),
  detail          text not null,
  comment         text,
  cure_document_id uuid references documents(id),
  created_at      timestamptz not null default now()
);
create index dispositions_review on dispositions (review_id);

create table idempotency_records (
  organization_id uuid not null references organizations(id),
  key             text not null check (char_length(key) <= 255),
  fingerprint     text not null,
  review_id       uuid,
  response_status integer,
  -- Stored as text so a replay is byte-for-byte the original body.
  response_body   text,
  created_at      timestamptz not null default now(),
  expires_at      timestamptz not null,
  primary key (organization_id, key)
);

create table webhook_endpoints (
  id                uuid primary key,
  organization_id   uuid not null references organizations(id),
  sandbox           boolean not null,
  url               text not null,
  description       text not null default '',
  enabled           boolean not null default true,
  -- AES-256-GCM: the service must sign with the secret, so it is encrypted, not hashed.
  secret_ciphertext bytea not null,
  secret_hint       text not null,
  created_at        timestamptz not null default now(),
  deleted_at        timestamptz
);
create index webhook_endpoints_owner on webhook_endpoints (organization_id, sandbox) where deleted_at is null;

create table webhook_deliveries (
  id           bigint generated always as identity primary key,
  endpoint_id  uuid not null references webhook_endpoints(id),
  review_id    uuid not null references reviews(id),
  event        text not null,
  attempt      integer not null check (attempt > 0),
  status_code  integer,
  error        text,
  duration_ms  integer not null,
  attempted_at timestamptz not null default now()
);
create index webhook_deliveries_review on webhook_deliveries (review_id, event);

create table rate_limit_counters (
  organization_id uuid not null references organizations(id),
  window_start    timestamptz not null,
  hits            integer not null,
  primary key (organization_id, window_start)
);
