// Which reviews an organization's retention has expired: those at rest (released or failed) whose last
// change is older than the organization's retention_days. Read from reviews_at_rest, oldest first, so
// that a sweep never reads the reviews it keeps.
import { recordFromRow, type ReviewRecord, type ReviewRow } from './reviews.js';
import type { Sql } from './client.js';

export interface RetentionPolicy {
  organizationId: string;
  retentionDays: number;
}

/** How the audit row of a deletion the retention made names who asked for it: `retention:<days>d`. */
export const RETENTION_REQUESTER_PREFIX = 'retention:';

/**
 * Whether the review was deleted by a retention (its audit row says so): a deletion an earlier attempt of
 * the retention carried out.
 */
export async function deletedByRetention(sql: Sql, reviewId: string): Promise<boolean> {
  const [row] = await sql`
    select 1 from review_deletions
     where review_id = ${reviewId} and starts_with(requested_by, ${RETENTION_REQUESTER_PREFIX})`;
  return row !== undefined;
}

/** The organizations that have a retention set. */
export async function retentionPolicies(sql: Sql): Promise<RetentionPolicy[]> {
  const rows = await sql<{ id: string; retention_days: number }[]>`
    select id, retention_days from organizations where retention_days is not null order by id`;
  return rows.map((r) => ({ organizationId: r.id, retentionDays: r.retention_days }));
}

/**
 * Reviews past their organization's retention (`r`, joined to its organization `o`): at rest, in the
 * states reviews_at_rest covers (named literally, so the planner can use the partial index), and last
 * changed longer ago than the retention.
 */
const pastRetention = (sql: Sql) => sql`
  r.internal_state in ('released', 'failed')
  and o.retention_days is not null
  and r.updated_at < now() - make_interval(days => o.retention_days)`;

/** Up to `limit` of the organization's reviews past its retention, oldest first: their ids. */
export async function expiredReviewIds(sql: Sql, organizationId: string, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select r.id from reviews r join organizations o on o.id = r.organization_id
     where r.organization_id = ${organizationId} and ${pastRetention(sql)}
     order by r.updated_at, r.id
     limit ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * The review with its organization and retention when it is past its retention now (read again just
 * before it is deleted: a review that received documents since the sweep found it is no longer at rest).
 */
export async function expiredReview(
  sql: Sql,
  reviewId: string,
): Promise<{ organizationId: string; record: ReviewRecord; retentionDays: number } | undefined> {
  const [row] = await sql<(ReviewRow & { retention_days: number })[]>`
    select r.*, o.retention_days from reviews r join organizations o on o.id = r.organization_id
     where r.id = ${reviewId} and ${pastRetention(sql)}`;
  return row && { organizationId: row.organization_id, record: recordFromRow(row), retentionDays: row.retention_days };
}
