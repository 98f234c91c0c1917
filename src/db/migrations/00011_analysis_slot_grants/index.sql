-- A slot given back is handed at once to the organization's oldest waiters, as many as are free:
-- such a row holds a slot from granted_at until its review asks again and claims it (granted_at goes
-- back to null). A grant not claimed within the waiters' lease lapses, so a review whose workflow vanished
-- between being granted and asking holds no slot for long. Rows from before were never granted (null).
alter table analysis_slots add column granted_at timestamptz;
