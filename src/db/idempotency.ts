// Idempotency records: per organization and key, the fingerprint of the request that claimed the key and,
// once it succeeded, the exact response body to replay. A claim is one atomic insert, so two concurrent
// requests with one key can never both proceed.
import type { Sql } from './client.js';

export type Claim =
  | { kind: 'claimed'; reviewId: string; resumed: boolean }
  | { kind: 'replay'; body: string }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

/** No create takes this long: a claim still without its answer is one whose request died mid-way. */
const ABANDONED_AFTER = '5 minutes';

export async function claimIdempotencyKey(
  sql: Sql,
  o: { organizationId: string; key: string; fingerprint: string; reviewId: string; ttlHours: number },
): Promise<Claim> {
  // An expired record is forgotten first, so the key can be used afresh.
  await sql`
    delete from idempotency_records
     where organization_id = ${o.organizationId} and key = ${o.key} and expires_at <= now()`;
  const inserted = await sql`
    insert into idempotency_records (organization_id, key, fingerprint, review_id, expires_at)
    values (${o.organizationId}, ${o.key}, ${o.fingerprint}, ${o.reviewId}, now() + make_interval(hours
    => ${o.ttlHours}))
    on conflict (organization_id, key) do nothing
    returning review_id`;
  if (inserted.length === 1) return { kind: 'claimed', reviewId: o.reviewId, resumed: false };
  const [existing] = await sql<{ fingerprint: string; response_body: string | null }[]>`
    select fingerprint, response_body from idempotency_records
     where organization_id = ${o.organizationId} and key = ${o.key}`;
  if (!existing) return { kind: 'in_progress' }; // released between our insert and select: try again
  if (existing.fingerprint !== o.fingerprint) return { kind: 'mismatch' };
  if (existing.response_body !== null) return { kind: 'replay', body: existing.response_body };
  // A request that died after Temporal took its create but before its answer was stored: this retry goes
  // on with the same review id, never a new one, so the review it may have started is found, not doubled.
  const [abandoned] = await sql<{ review_id: string }[]>`
    update idempotency_records set created_at = now()
     where organization_id = ${o.organizationId} and key = ${o.key}
       and response_body is null and created_at < now() - ${ABANDONED_AFTER}::interval
    returning review_id`;
  return abandoned ? { kind: 'claimed', reviewId: abandoned.review_id, resumed: true } : { kind: 'in_progress' };
}

export async function completeIdempotencyKey(
  sql: Sql,
  organizationId: string,
  key: string,
  body: string,
): Promise<void> {
  await sql`
    update idempotency_records set response_status = 201, response_body = ${body}
     where organization_id = ${organizationId} and key = ${key}`;
}

/**
 * A request that ended without knowing whether its create went through (a server behind the API failed
 * or was too slow): its claim is marked abandoned at once, so that a retry with the key goes on with the
 * same review id (finding the review if it was made) instead of waiting ABANDONED_AFTER.
 */
export async function abandonIdempotencyKey(sql: Sql, organizationId: string, key: string): Promise<void> {
  await sql`
    update idempotency_records set created_at = now() - ${ABANDONED_AFTER}::interval - interval '1 second'
     where organization_id = ${organizationId} and key = ${key} and response_body is null`;
}

/** Only successes are remembered: a refused request gives its key back. */
export async function releaseIdempotencyKey(sql: Sql, organizationId: string, key: string): Promise<void> {
  await sql`
    delete from idempotency_records
     where organization_id = ${organizationId} and key = ${key} and response_body is null`;
}
