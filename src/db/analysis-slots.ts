// Analysis slots: at most N reviews of an organization analyse at once, across every worker (DECISIONS 5).
// A review asks for a slot; if none is free it waits its turn (oldest waiter first) and asks again when
// signalled or after a while. A holder that vanished (its workflow terminated) frees its slot after the
// lease; a waiter that stopped asking stops blocking the queue.
import type { Sql } from './client.js';

/** A holder older than this is taken to be gone (an analysis of the largest package takes far less). */
const HOLD_LEASE = '2 hours';
/** A waiter that has not asked again within this is taken to be gone (waiters ask at least every 30 s). */
const WAIT_LEASE = '2 minutes';

export interface SlotRequest {
  reviewId: string;
  organizationId: string;
  limit: number;
}

/** Takes a slot if one is free and no live waiter is ahead; otherwise joins (or stays in) the queue. */
export async function acquireAnalysisSlot(sql: Sql, r: SlotRequest): Promise<boolean> {
  return sql.begin(async (tx) => {
    // One organization's slots are decided one request at a time.
    await tx`select pg_advisory_xact_lock(hashtextextended(${`analysis-slots:${r.organizationId}`}, 0))`;
    const [mine] = await tx<{ holding: boolean }[]>`select holding from analysis_slots where review_id = ${r.reviewId}`;
    if (mine?.holding) return true;
    const [counts] = await tx<{ held: number; ahead: number }[]>`
      select count(*) filter (where holding and since > now() - ${HOLD_LEASE}::interval)::int as held,
             count(*) filter (where not holding and seen_at > now() - ${WAIT_LEASE}::interval
                              and since < coalesce((select since from analysis_slots where review_id = ${r.reviewId}), now()))::int as ahead
        from analysis_slots
       where organization_id = ${r.organizationId} and review_id <> ${r.reviewId}`;
    const free = counts!.held < r.limit && counts!.ahead === 0;
    await tx`
      insert into analysis_slots (review_id, organization_id, holding)
      values (${r.reviewId}, ${r.organizationId}, ${free})
      on conflict (review_id) do update
        set holding = excluded.holding, seen_at = now(),
            since = case when excluded.holding then now() else analysis_slots.since end`;
    return free;
  });
}

/** Gives a slot (or a place in the queue) back; returns the review waiting longest, to be told. */
export async function releaseAnalysisSlot(sql: Sql, r: Omit<SlotRequest, 'limit'>): Promise<string | null> {
  await sql`delete from analysis_slots where review_id = ${r.reviewId}`;
  const [next] = await sql<{ review_id: string }[]>`
    select review_id from analysis_slots
     where organization_id = ${r.organizationId} and not holding and seen_at > now() - ${WAIT_LEASE}::interval
     order by since, review_id limit 1`;
  return next?.review_id ?? null;
}
