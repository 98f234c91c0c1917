-- Reviews not yet at rest, by internal state: the operations metrics count them and age the oldest of each
-- state at every scrape (src/telemetry/review-state-metrics.ts), which must not read every review ever made.
create index reviews_active_states on reviews (internal_state, updated_at)
  where internal_state not in ('released', 'failed', 'awaiting_documents');
