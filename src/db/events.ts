// The events the service announces (review.completed, review.amended, review.failed), one row each, written
// when the review's workflow announces it, whether or not an endpoint is registered. A delivery reads its
// payload from here, the first time and when an integrator has it sent again; GET /v1/events lists them
// for reconciliation.
import type { Queryable, Sql } from './client.js';
import { currentRelease } from './releases.js';
import type { Owner } from './webhook-endpoints.js';
import type { ListPosition } from '../reviews/cursor.js';
import type { WebhookEvent, WebhookPayload } from '../webhooks/payload.js';

export interface NewEvent {
  id: string;
  reviewId: string;
  type: WebhookEvent;
  /** The release announced: null for review.failed; undefined: the review's current one, read now. */
  releaseId: string | null | undefined;
  occurredAt: string;
}

/** The review's status an event reports (decisions.md, "Webhook status"). */
const EVENT_STATUS: Record<WebhookEvent, 'completed' | 'failed'> = {
  'review.completed': 'completed',
  'review.amended': 'completed',
  'review.failed': 'failed',
};

/**
 * Records an event of a review (its organization and mode are the review's). Idempotent: an activity
 * retried after a lost reply records nothing twice.
 */
export async function recordEvent(sql: Sql, e: NewEvent): Promise<void> {
  const releaseId = e.releaseId === undefined ? ((await currentRelease(sql, e.reviewId))?.id ?? null) : e.releaseId;
  await sql`
    insert into events (id, organization_id, sandbox, review_id, type, release_id, occurred_at)
    select ${e.id}, organization_id, sandbox, id, ${e.type}, ${releaseId}, ${e.occurredAt}
      from reviews where id = ${e.reviewId}
    on conflict (id) do nothing`;
}

type EventRow = {
  id: string;
  review_id: string;
  type: WebhookEvent;
  release_id: string | null;
  reference_id: string | null;
  occurred_at: Date;
};

function payloadOf(r: EventRow): WebhookPayload {
  return {
    id: r.id,
    event: r.type,
    review_id: r.review_id,
    release_id: r.release_id,
    reference_id: r.reference_id,
    status: EVENT_STATUS[r.type],
    occurred_at: r.occurred_at.toISOString(),
  };
}

/** An event's payload as a delivery carries it. */
export async function eventPayload(sql: Queryable, id: string): Promise<WebhookPayload | undefined> {
  const [row] = await sql<EventRow[]>`
    select e.id, e.review_id, e.type, e.release_id, r.reference_id, e.occurred_at
      from events e join reviews r on r.id = e.review_id
     where e.id = ${id}`;
  return row && payloadOf(row);
}

/** Whether the owner (organization and mode) has this event. */
export async function ownsEvent(sql: Queryable, owner: Owner, id: string): Promise<boolean> {
  const rows = await sql`
    select 1 from events
     where id = ${id} and organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox}`;
  return rows.length === 1;
}

export interface EventFilter {
  type?: WebhookEvent | undefined;
  reviewId?: string | undefined;
}

/** One page of the owner's events, newest first by (occurred_at, id): keyset pagination, as for reviews. */
export async function listEvents(
  sql: Queryable,
  owner: Owner,
  limit: number,
  after: ListPosition | undefined,
  filter: EventFilter = {},
): Promise<{ events: WebhookPayload[]; hasMore: boolean }> {
  const rows = await sql<EventRow[]>`
    select e.id, e.review_id, e.type, e.release_id, r.reference_id, e.occurred_at
      from events e join reviews r on r.id = e.review_id
     where e.organization_id = ${owner.organizationId} and e.sandbox = ${owner.sandbox}
       ${filter.type !== undefined ? sql`and e.type = ${filter.type}` : sql``}
       ${filter.reviewId !== undefined ? sql`and e.review_id = ${filter.reviewId}` : sql``}
       ${after ? sql`and (e.occurred_at, e.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
     order by e.occurred_at desc, e.id desc
     limit ${limit + 1}`;
  return { events: rows.slice(0, limit).map(payloadOf), hasMore: rows.length > limit };
}
