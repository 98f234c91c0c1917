// Ingested submissions: what the ingest activity found, kept by id for the activity that records it.
import { randomUUID } from 'node:crypto';
import type { Queryable } from './client.js';
import type { IngestedDocument } from '../ingest/package.js';

export interface IngestedSubmission {
  /** New documents only, in submission order, under their temporary keys. */
  documents: IngestedDocument[];
  /** Every staging object the submission used, to remove once it is recorded. */
  staged: string[];
}

/** How long an unrecorded submission is kept: as long as the staged objects it names (minio.ts). */
const EXPIRES_AFTER = '1 day';

/** Stores a submission and returns its id; drops submissions older than a day on the way. */
export async function saveIngestedSubmission(
  sql: Queryable,
  reviewId: string,
  submission: IngestedSubmission,
): Promise<string> {
  const id = randomUUID();
  await sql`delete from ingested_submissions where created_at < now() - ${EXPIRES_AFTER}::interval`;
  // Bound as text and cast by the server: a string bound to a jsonb parameter would be stored as one JSON
  // string, and sql.json() takes only index-signature types, which these interfaces are not.
  await sql`
    insert into ingested_submissions (id, review_id, documents, staged)
    values (${id}, ${reviewId}, ${JSON.stringify(submission.documents)}::text::jsonb,
    ${JSON.stringify(submission.staged)}::text::jsonb)`;
  return id;
}

/** The submission `id` of review `reviewId`; throws when it is unknown (expired, or another review's). */
export async function ingestedSubmission(sql: Queryable, reviewId: string, id: string): Promise<IngestedSubmission> {
  const [row] = await sql<IngestedSubmission[]>`
    select documents, staged from ingested_submissions where id = ${id} and review_id = ${reviewId}`;
  if (!row)
    throw new Error(`ingested submission ${id} of review ${reviewId} is unknown (older than ${EXPIRES_AFTER}?)`);
  return row;
}
