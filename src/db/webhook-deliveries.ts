// Webhook delivery attempts, one row per attempt: what was sent, to which endpoint, and how it went.
// Integrators list an endpoint's (GET /v1/webhook-endpoints/{id}/deliveries); operators and tests read a
// review's.
import type { Queryable } from './client.js';
import type { Owner } from './webhook-endpoints.js';
import type { WebhookDelivery } from '../webhooks/delivery-log.js';
import type { WebhookEvent } from '../webhooks/payload.js';

export interface DeliveryAttempt {
  endpointId: string;
  reviewId: string;
  event: string;
  /** The event's id (its row in events). */
  eventId: string;
  releaseId: string | null;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export async function recordDeliveryAttempt(sql: Queryable, a: DeliveryAttempt): Promise<void> {
  await sql`
    insert into webhook_deliveries (endpoint_id, review_id, event, event_id, release_id, attempt,
    status_code, error, duration_ms)
    values (${a.endpointId}, ${a.reviewId}, ${a.event}, ${a.eventId}, ${a.releaseId}, ${a.attempt},
    ${a.statusCode}, ${a.error}, ${a.durationMs})`;
}

type DeliveryRow = {
  endpoint_id: string;
  review_id: string;
  event: string;
  event_id: string;
  release_id: string | null;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
};

export async function deliveryAttempts(sql: Queryable, reviewId: string): Promise<Omit<DeliveryAttempt, 'reviewId'>[]> {
  const rows = await sql<DeliveryRow[]>`select * from webhook_deliveries where review_id = ${reviewId} order by id`;
  return rows.map((r) => ({
    endpointId: r.endpoint_id,
    event: r.event,
    eventId: r.event_id,
    releaseId: r.release_id,
    attempt: r.attempt,
    statusCode: r.status_code,
    error: r.error,
    durationMs: r.duration_ms,
  }));
}

/**
 * The latest `limit` attempts at an endpoint of this owner, newest first; undefined when the owner has no
 * such endpoint (unknown, another organization's or mode's, or deleted), as for every endpoint operation.
 */
export async function endpointDeliveries(
  sql: Queryable,
  owner: Owner,
  endpointId: string,
  limit: number,
): Promise<WebhookDelivery[] | undefined> {
  const [endpoint] = await sql`
    select 1 from webhook_endpoints
     where id = ${endpointId} and organization_id = ${owner.organizationId} and sandbox =
     ${owner.sandbox} and deleted_at is null`;
  if (!endpoint) return undefined;
  const rows = await sql<DeliveryRow[]>`
    select * from webhook_deliveries where endpoint_id = ${endpointId} order by id desc limit ${limit}`;
  return rows.map((r) => ({
    event_id: r.event_id,
    event: r.event as WebhookEvent,
    review_id: r.review_id,
    release_id: r.release_id,
    attempt: r.attempt,
    status_code: r.status_code,
    delivered: r.status_code !== null && r.status_code >= 200 && r.status_code < 300,
    error: r.error,
    duration_ms: r.duration_ms,
    attempted_at: r.attempted_at.toISOString(),
  }));
}
