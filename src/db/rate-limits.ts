// Fleet-wide request counters: one row per organization and fixed one-minute window (an unlogged table,
// migration 00010), bumped by a single atomic upsert so that any number of API processes share the count.
import type { Sql } from './client.js';

/** Counts `n` requests in the window starting at `windowStart`; returns the window's count after them. */
export async function countRequests(sql: Sql, organizationId: string, windowStart: Date, n: number): Promise<number> {
  const [row] = await sql<{ hits: number }[]>`
    insert into rate_limit_counters (organization_id, window_start, hits)
    values (${organizationId}, ${windowStart}, ${n})
    on conflict (organization_id, window_start) do update set hits = rate_limit_counters.hits + ${n}
    returning hits`;
  return row!.hits;
}

export async function uncountRequest(sql: Sql, organizationId: string, windowStart: Date): Promise<void> {
  await sql`
    update rate_limit_counters set hits = greatest(hits - 1, 0)
     where organization_id = ${organizationId} and window_start = ${windowStart}`;
}

export async function forgetWindowsBefore(sql: Sql, before: Date): Promise<void> {
  await sql`delete from rate_limit_counters where window_start < ${before}`;
}
