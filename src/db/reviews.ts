// The reviews read model: written by workflow activities, read by the API, always scoped by organization.
import type { Queryable, Sql } from './client.js';
import { insertDocuments, type NewDocument } from './documents.js';
import type { Review, ReviewStatus } from '../reviews/review.js';
import { z } from 'zod';
import { INTERNAL_STATES, type InternalState } from '../reviews/states.js';

const InternalStateSchema = z.enum(INTERNAL_STATES);

export type ReviewRow = {
  id: string;
  organization_id: string;
  sandbox: boolean;
  status: ReviewStatus;
  internal_state: string;
  review_type: string;
  label: string | null;
  reference_id: string | null;
  metadata: Record<string, string> | null;
  document_count: number;
  report_available: boolean;
  created_at: Date;
  updated_at: Date;
};

export function reviewFromRow(r: ReviewRow): Review {
  return {
    review_id: r.id,
    status: r.status,
    review_type: r.review_type,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    document_count: r.document_count,
    label: r.label,
    reference_id: r.reference_id,
    report_available: r.report_available,
    sandbox: r.sandbox,
  };
}

export interface NewReview {
  id: string;
  organizationId: string;
  sandbox: boolean;
  status: ReviewStatus;
  internalState: string;
  reviewType: string;
  label: string | null;
  referenceId: string | null;
  metadata: Record<string, string> | null;
  createdAt: Date;
}

export class DuplicateReferenceIdError extends Error {
  override name = 'DuplicateReferenceIdError';
  constructor(
    /** The review that holds the reference (undefined if it was deleted meanwhile). */
    readonly existingReviewId: string | undefined,
  ) {
    super('reference_id is taken');
  }
}

/**
 * Inserts the review row with its documents, in one transaction. Idempotent for the same id (an activity
 * retried after a lost reply returns the row it wrote); a reference_id taken by another review of the
 * organization is DuplicateReferenceIdError.
 */
export async function insertReview(sql: Sql, r: NewReview, documents: NewDocument[] = []): Promise<Review> {
  try {
    return await sql.begin(async (tx) => {
      const rows = await tx<ReviewRow[]>`
        insert into reviews (id, organization_id, sandbox, status, internal_state, review_type, label,
                             reference_id, metadata, document_count, created_at, updated_at)
        values (${r.id}, ${r.organizationId}, ${r.sandbox}, ${r.status}, ${r.internalState}, ${r.reviewType},
                ${r.label}, ${r.referenceId}, ${r.metadata === null ? null : tx.json(r.metadata)},
                ${documents.length}, ${r.createdAt}, ${r.createdAt})
        on conflict (id) do nothing
        returning *`;
      if (rows[0]) {
        await insertDocuments(tx, r.id, documents);
        await logTransition(tx, { reviewId: r.id, internalState: r.internalState, status: r.status, at: r.createdAt });
        return reviewFromRow(rows[0]);
      }
      const existing = await getReview(tx, r.organizationId, r.id);
      if (!existing) throw new Error(`review ${r.id} exists under another organization`);
      return existing;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'reviews_reference_id')) {
      const [holder] = await sql<{ id: string }[]>`
        select id from reviews where organization_id = ${r.organizationId} and reference_id = ${r.referenceId}`;
      throw new DuplicateReferenceIdError(holder?.id);
    }
    throw err;
  }
}

export async function getReview(sql: Queryable, organizationId: string, id: string): Promise<Review | undefined> {
  const [row] = await sql<ReviewRow[]>`
    select * from reviews where id = ${id} and organization_id = ${organizationId}`;
  return row && reviewFromRow(row);
}

/** What narrows a list of reviews; each is optional, and they combine. */
export interface ReviewFilter {
  referenceId?: string | undefined;
  status?: ReviewStatus | undefined;
  /** ISO instants: created strictly after, strictly before. */
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
}

/**
 * One page of an organization's reviews, newest first by (created_at, id). Keyset pagination: reviews
 * created while a client pages through never shift a page, so there are no duplicates or gaps.
 */
export async function listReviews(
  sql: Sql,
  organizationId: string,
  limit: number,
  after?: { createdAt: string; id: string },
  filter: ReviewFilter = {},
): Promise<{ reviews: Review[]; hasMore: boolean }> {
  const { referenceId, status, createdAfter, createdBefore } = filter;
  const rows = await sql<ReviewRow[]>`
    select * from reviews
     where organization_id = ${organizationId}
       ${referenceId !== undefined ? sql`and reference_id = ${referenceId}` : sql``}
       ${status !== undefined ? sql`and status = ${status}` : sql``}
       ${createdAfter !== undefined ? sql`and created_at > ${createdAfter}::timestamptz` : sql``}
       ${createdBefore !== undefined ? sql`and created_at < ${createdBefore}::timestamptz` : sql``}
       ${after ? sql`and (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
     order by created_at desc, id desc
     limit ${limit + 1}`;
  return { reviews: rows.slice(0, limit).map(reviewFromRow), hasMore: rows.length > limit };
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === '23505' &&
    (err as { constraint_name?: unknown }).constraint_name === constraint
  );
}

/** A review with what only the service sees: the workflow's internal state as last recorded, and the metadata. */
export interface ReviewRecord {
  review: Review;
  internalState: InternalState;
  metadata: Record<string, string> | null;
}

export async function getReviewRecord(sql: Sql, organizationId: string, id: string): Promise<ReviewRecord | undefined> {
  const [row] = await sql<ReviewRow[]>`
    select * from reviews where id = ${id} and organization_id = ${organizationId}`;
  return row && recordFromRow(row);
}

/** For operators' tooling, which acts on any review: the record and the organization that owns it. */
export async function findReviewRecord(
  sql: Sql,
  id: string,
): Promise<{ organizationId: string; record: ReviewRecord } | undefined> {
  const [row] = await sql<ReviewRow[]>`select * from reviews where id = ${id}`;
  return row && { organizationId: row.organization_id, record: recordFromRow(row) };
}

export function recordFromRow(row: ReviewRow): ReviewRecord {
  return {
    review: reviewFromRow(row),
    internalState: InternalStateSchema.parse(row.internal_state),
    metadata: row.metadata,
  };
}

/** For workflow activities, which act on a review they own: no organization scope. */
export async function getReviewRecordById(sql: Sql, id: string): Promise<Review | undefined> {
  const [row] = await sql<ReviewRow[]>`select * from reviews where id = ${id}`;
  return row && reviewFromRow(row);
}

/**
 * Writes one transition of the review workflow: the row's status and internal state (with
 * `report_available` true exactly when the review is completed and has a release) and a line in
 * review_transitions, in one transaction.
 */
export async function recordTransition(
  sql: Sql,
  t: { reviewId: string; internalState: InternalState; status: ReviewStatus; detail?: string | null; at?: Date },
): Promise<void> {
  await sql.begin(async (tx) => {
    await setReviewState(tx, t);
    await logTransition(tx, t);
  });
}

/** Seconds since the review entered its current state; undefined when it does not exist. */
export async function secondsInState(sql: Queryable, reviewId: string): Promise<number | undefined> {
  const [row] = await sql<{ seconds: number }[]>`
    select extract(epoch from now() - updated_at)::float8 as seconds from reviews where id = ${reviewId}`;
  return row?.seconds;
}

/**
 * The one writer of a review's status and internal state (inside the caller's transaction):
 * `report_available` follows, true exactly when the review is completed and has a release. Returns the
 * row as written, undefined when the review does not exist.
 */
export async function setReviewState(
  sql: Queryable,
  t: { reviewId: string; internalState: InternalState; status: ReviewStatus },
): Promise<Review | undefined> {
  const [row] = await sql<ReviewRow[]>`
    update reviews
       set status = ${t.status}, internal_state = ${t.internalState}, updated_at = now(),
           report_available = ${t.status === 'completed'} and exists (select 1 from releases where
           review_id = ${t.reviewId})
     where id = ${t.reviewId}
    returning *`;
  return row && reviewFromRow(row);
}

/** Appends a line to a review's transition log, inside the caller's transaction (at: now unless given). */
export async function logTransition(
  sql: Queryable,
  t: { reviewId: string; internalState: string; status: ReviewStatus; detail?: string | null; at?: Date },
): Promise<void> {
  await sql`
    insert into review_transitions (review_id, internal_state, status, detail, at)
    values (${t.reviewId}, ${t.internalState}, ${t.status}, ${t.detail ?? null},
    coalesce(${t.at ?? null}::timestamptz, now()))`;
}

/** A review's transitions in order, for operators and tests. */
export async function reviewTransitions(
  sql: Sql,
  reviewId: string,
): Promise<{ internalState: string; status: string; at: Date }[]> {
  const rows = await sql<{ internal_state: string; status: string; at: Date }[]>`
    select internal_state, status, at from review_transitions where review_id = ${reviewId} order by id`;
  return rows.map((r) => ({ internalState: r.internal_state, status: r.status, at: r.at }));
}
