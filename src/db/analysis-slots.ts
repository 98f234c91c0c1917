// Analysis slots: at most N reviews of an organization analyse at once, across every worker (decisions.md, "Queued").
// A review asks for a slot; if none is free it waits its turn (oldest waiter first). A slot given back is
// handed at once to the oldest waiters, as many as are free (a grant), and they are told to ask again,
// which claims it; a waiter also asks again after a while unprompted. A holder that vanished (its
// workflow terminated) frees its slot after the hold lease; a waiter that stopped asking stops blocking
// the queue, and a grant its waiter never claims lapses after the waiters' lease.
import type { Queryable, Sql } from './client.js';

/** A holder older than this is taken to be gone (an analysis of the largest package takes far less). */
const HOLD_LEASE = '2 hours';
/**
 * A waiter that has not asked again within this is taken to be gone (waiters ask at least every 30 s),
 * and so is one granted a slot that has not claimed it within this (it is told at once, and asks anyway).
 */
const WAIT_LEASE = '2 minutes';

export interface SlotRequest {
  reviewId: string;
  organizationId: string;
  limit: number;
}

/** One organization's slots are decided one request at a time, on every worker. */
async function lockOrganization(tx: Queryable, organizationId: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`analysis-slots:${organizationId}`}, 0))`;
}

/** A row taking one of the slots: a holder within its lease, or a grant not yet claimed nor lapsed. */
const takesSlot = (q: Queryable) => q`
  holding and case when granted_at is null then since > now() - ${HOLD_LEASE}::interval
                   else granted_at > now() - ${WAIT_LEASE}::interval end`;

/** How many of the organization's slots are taken now, on every worker (holders and live grants). */
export async function slotsInUse(q: Queryable, organizationId: string): Promise<number> {
  const [row] = await q<
    { n: number }[]
  >`select count(*)::int as n from analysis_slots where organization_id = ${organizationId} and ${takesSlot(q)}`;
  return row!.n;
}

/** A row waiting for a slot whose review still asks. */
const liveWaiter = (q: Queryable) => q`not holding and seen_at > now() - ${WAIT_LEASE}::interval`;

/**
 * Takes a slot if one was granted to the review, or if one is free and no live waiter is ahead; otherwise
 * joins (or stays in) the queue.
 */
export async function acquireAnalysisSlot(sql: Sql, r: SlotRequest): Promise<boolean> {
  return sql.begin(async (tx) => {
    await lockOrganization(tx, r.organizationId);
    const [mine] = await tx<{ holding: boolean; lapsed: boolean }[]>`
      select holding, granted_at is not null and granted_at <= now() - ${WAIT_LEASE}::interval as lapsed
        from analysis_slots where review_id = ${r.reviewId}`;
    if (mine?.holding && !mine.lapsed) {
      // Claiming a grant: the slot is the review's from now on, and its hold lease runs from now.
      await tx`update analysis_slots set granted_at = null, since = now(), seen_at = now()
                where review_id = ${r.reviewId} and granted_at is not null`;
      return true;
    }
    // (A lapsed grant's review asks again: it is a waiter once more, at its old place in the queue.)
    const [counts] = await tx<{ held: number; ahead: number }[]>`
      select count(*) filter (where ${takesSlot(tx)})::int as held,
             count(*) filter (where ${liveWaiter(tx)}
                              and since < coalesce((select since from analysis_slots where review_id =
                              ${r.reviewId}), now()))::int as ahead
        from analysis_slots
       where organization_id = ${r.organizationId} and review_id <> ${r.reviewId}`;
    const free = counts!.held < r.limit && counts!.ahead === 0;
    await tx`
      insert into analysis_slots (review_id, organization_id, holding)
      values (${r.reviewId}, ${r.organizationId}, ${free})
      on conflict (review_id) do update
        set holding = excluded.holding, seen_at = now(), granted_at = null,
            since = case when excluded.holding then now() else analysis_slots.since end`;
    return free;
  });
}

/**
 * Gives a slot (or a place in the queue) back and grants every slot now free to the organization's
 * oldest live waiters, in the same transaction; returns those waiters, oldest first, to be told. (Should
 * the caller never see the answer and give back again, nothing more is granted: the waiters granted find
 * their slots when they next ask, within the 30 s they wait at most.)
 */
export async function releaseAnalysisSlot(sql: Sql, r: SlotRequest): Promise<string[]> {
  return sql.begin(async (tx) => {
    await lockOrganization(tx, r.organizationId);
    await tx`delete from analysis_slots where review_id = ${r.reviewId}`;
    const free = r.limit - (await slotsInUse(tx, r.organizationId));
    if (free <= 0) return [];
    const granted = await tx<{ review_id: string }[]>`
      with granted as (
        update analysis_slots set holding = true, granted_at = now()
         where review_id in (select review_id from analysis_slots
                              where organization_id = ${r.organizationId} and ${liveWaiter(tx)}
                              order by since, review_id limit ${free})
        returning review_id, since)
      select review_id from granted order by since, review_id`;
    return granted.map((g) => g.review_id);
  });
}
