// Fleet-wide pacing of webhook delivery attempts per host, by the generic cell rate algorithm: each host
// has one row whose next_at is when its schedule is next free. Taking a slot moves next_at on by one
// interval (1 / rate); a host idle for a while may take up to one second's worth at once. One atomic upsert
// per attempt, so any number of workers share the schedule, and a slot is never given twice.
import type { Queryable } from './client.js';

export interface DeliverySlot {
  /** When this attempt may be made; at or before `now` when it may be made at once. */
  at: Date;
  /** The database's clock when the slot was taken: the waits are computed on one clock. */
  now: Date;
}

/** Takes the next delivery slot of `host`, which allows `perSecond` attempts a second. */
export async function takeDeliverySlot(sql: Queryable, host: string, perSecond: number): Promise<DeliverySlot> {
  const interval = 1 / perSecond;
  // The slot is next_at's value before this update: max(next_at, now - one second's burst).
  const [row] = await sql<{ at: Date; now: Date }[]>`
    insert into webhook_host_pacing as p (host, next_at)
    values (${host}, clock_timestamp() - make_interval(secs => 1) + make_interval(secs => ${interval}))
    on conflict (host) do update
      set next_at = greatest(p.next_at, clock_timestamp() - make_interval(secs => 1)) +
      make_interval(secs => ${interval})
    returning next_at - make_interval(secs => ${interval}) as at, clock_timestamp() as now`;
  return row!;
}
