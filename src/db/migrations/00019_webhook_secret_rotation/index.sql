-- A rotated signing secret's predecessor, sealed like the current one, and until when deliveries still
-- carry its signature beside the new one's (the overlap a receiver needs to switch secrets).
alter table webhook_endpoints
  add column previous_secret_ciphertext bytea,
  add column previous_secret_expires_at timestamptz;
