// Fleet-wide pacing of webhook delivery attempts per organization and host, by the generic cell rate
// algorithm: each (organization, host) has one row whose next_at is when its schedule is next free. Taking
// a slot moves next_at on by one interval (1 / rate); a schedule idle for a while may take up to one
// second's worth at once. One atomic upsert per attempt, so any number of workers share the schedule, and a
// slot is never given twice.
//
// Each organization has its own schedule per host, at the full rate: a host thus receives at most that rate
// from each organization that names it. That is the fair share: an organization's attempts wait only
// behind its own, so one tenant (however many endpoints it registers on another's receiver host, however
// many deliveries it makes fail there) can never slow another's deliveries.
import type { Queryable } from './client.js';

export interface DeliverySlot {
  /** When this attempt may be made; at or before `now` when it may be made at once. */
  at: Date;
  /** The database's clock when the slot was taken: the waits are computed on one clock. */
  now: Date;
}

/**
 * Takes the next slot of `organizationId`'s deliveries to `host`, which allows `perSecond` attempts a
 * second; other organizations' deliveries to the host have schedules of their own.
 */
export async function takeDeliverySlot(
  sql: Queryable,
  organizationId: string,
  host: string,
  perSecond: number,
): Promise<DeliverySlot> {
  const interval = 1 / perSecond;
  // The slot is next_at's value before this update: max(next_at, now - one second's burst).
  const [row] = await sql<{ at: Date; now: Date }[]>`
    insert into webhook_host_pacing as p (organization_id, host, next_at)
    values (${organizationId}, ${host},
            clock_timestamp() - make_interval(secs => 1) + make_interval(secs => ${interval}))
    on conflict (organization_id, host) do update
      set next_at = greatest(p.next_at, clock_timestamp() - make_interval(secs => 1)) +
      make_interval(secs => ${interval})
    returning next_at - make_interval(secs => ${interval}) as at, clock_timestamp() as now`;
  return row!;
}
