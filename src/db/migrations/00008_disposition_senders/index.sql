-- Who sent a decision: the API key whose request carried the working document, and that request's
-- X-Request-Id, so that an operator approving a disputed release sees whose dispute it is. Decisions
-- recorded before this have neither (null).
alter table dispositions add column api_key_id uuid references api_keys(id), add column request_id text;
