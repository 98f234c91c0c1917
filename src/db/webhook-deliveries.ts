// Webhook delivery attempts, one row per attempt, for operators (and the tests) to see what was sent.
import type { Sql } from './client.js';

export interface DeliveryAttempt {
  endpointId: string;
  reviewId: string;
  event: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export async function recordDeliveryAttempt(sql: Sql, a: DeliveryAttempt): Promise<void> {
  await sql`
    insert into webhook_deliveries (endpoint_id, review_id, event, attempt, status_code, error, duration_ms)
    values (${a.endpointId}, ${a.reviewId}, ${a.event}, ${a.attempt}, ${a.statusCode}, ${a.error}, ${a.durationMs})`;
}

export async function deliveryAttempts(sql: Sql, reviewId: string): Promise<Omit<DeliveryAttempt, 'reviewId'>[]> {
  const rows = await sql<{ endpoint_id: string; event: string; attempt: number; status_code: number | null; error: string | null; duration_ms: number }[]>`
    select endpoint_id, event, attempt, status_code, error, duration_ms from webhook_deliveries
     where review_id = ${reviewId} order by id`;
  return rows.map((r) => ({ endpointId: r.endpoint_id, event: r.event, attempt: r.attempt, statusCode: r.status_code, error: r.error, durationMs: r.duration_ms }));
}
