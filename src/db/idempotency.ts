// Idempotency records: per organization and key, the fingerprint of the request that claimed the key and,
// once it succeeded, the exact response body to replay. A claim is one atomic insert, so two concurrent
// requests with one key can never both proceed.
import type { Sql } from './client.js';

export type Claim =
  | { kind: 'claimed'; reviewId: string }
  | { kind: 'replay'; body: string }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export async function claimIdempotencyKey(
  sql: Sql,
  o: { organizationId: string; key: string; fingerprint: string; reviewId: string; ttlHours: number },
): Promise<Claim> {
  // An expired record is forgotten first, so the key can be used afresh; so is a claim whose request died
  // mid-way (no create takes five minutes).
  await sql`
    delete from idempotency_records
     where organization_id = ${o.organizationId} and key = ${o.key}
       and (expires_at <= now() or (response_body is null and created_at < now() - interval '5 minutes'))`;
  const inserted = await sql`
    insert into idempotency_records (organization_id, key, fingerprint, review_id, expires_at)
    values (${o.organizationId}, ${o.key}, ${o.fingerprint}, ${o.reviewId}, now() + make_interval(hours => ${o.ttlHours}))
    on conflict (organization_id, key) do nothing
    returning review_id`;
  if (inserted.length === 1) return { kind: 'claimed', reviewId: o.reviewId };
  const [existing] = await sql<{ fingerprint: string; response_body: string | null }[]>`
    select fingerprint, response_body from idempotency_records
     where organization_id = ${o.organizationId} and key = ${o.key}`;
  if (!existing) return { kind: 'in_progress' }; // released between our insert and select: try again
  if (existing.fingerprint !== o.fingerprint) return { kind: 'mismatch' };
  return existing.response_body === null ? { kind: 'in_progress' } : { kind: 'replay', body: existing.response_body };
}

export async function completeIdempotencyKey(sql: Sql, organizationId: string, key: string, body: string): Promise<void> {
  await sql`
    update idempotency_records set response_status = 201, response_body = ${body}
     where organization_id = ${organizationId} and key = ${key}`;
}

/** Only successes are remembered: a failed request gives its key back. */
export async function releaseIdempotencyKey(sql: Sql, organizationId: string, key: string): Promise<void> {
  await sql`
    delete from idempotency_records
     where organization_id = ${organizationId} and key = ${key} and response_body is null`;
}
