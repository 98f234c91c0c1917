-- Every API request bumps its organization's counter for the minute. A logged table made each request
-- wait for a disk-synced commit while holding that row, so requests of one organization queued behind
-- each other's fsync. Unlogged, the bump writes no WAL and its commit waits on no disk. What is given up:
-- after a crash of Postgres the counters start from zero, i.e. at most one extra minute's allowance.
alter table rate_limit_counters set unlogged;

-- API processes keep the keys they have looked up for a few seconds (API_KEY_CACHE_SECONDS). Any change
-- to a key (revoked, expired, deleted) or to its organization (its rate-limit override) is announced on
-- this channel, whoever makes it (the admin CLI or plain SQL), so that every process forgets it at once;
-- the cache's lifetime only bounds a notice missed while a listener reconnects.
create function announce_api_key_change() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'api_keys' then
    perform pg_notify('api_key_changed', 'key:' || encode(coalesce(new.key_hash, old.key_hash), 'hex'));
  else
    perform pg_notify('api_key_changed', 'organization:' || coalesce(new.id, old.id)::text);
  end if;
  return null;
end
$$;

create trigger api_key_changed after update or delete on api_keys
  for each row execute function announce_api_key_change();
create trigger api_key_changed after update or delete on organizations
  for each row execute function announce_api_key_change();
