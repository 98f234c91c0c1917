-- Each delivery attempt names the event it delivers (one id per event: the same on every attempt and at
-- every endpoint, so receivers de-duplicate on it) and the release it announces; an endpoint's attempts
-- are listed newest first. Attempts recorded before this carry neither (null).
alter table webhook_deliveries add column event_id uuid, add column release_id uuid;
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc);
