// The documents of a review: one row per distinct file (by SHA-256), pointing at its object in MinIO.
import { randomUUID } from 'node:crypto';
import type { Queryable, Sql } from './client.js';
import type { IngestedDocument } from '../ingest/package.js';
import { checkReviewLimits, IngestRejection } from '../ingest/rejection.js';

export type NewDocument = Omit<IngestedDocument, 'tempKey'> & { objectKey: string };

/** Inserts documents (idempotent per review and hash); returns the rows that are new. */
export async function insertDocuments(
  sql: Queryable,
  reviewId: string,
  documents: NewDocument[],
): Promise<NewDocument[]> {
  const added: NewDocument[] = [];
  for (const d of documents) {
    const rows = await sql`
      insert into documents (id, review_id, sha256, size_bytes, object_key, filename, declared_type, detected_type,
                             source, source_detail, role, answers_release_id)
      values (${randomUUID()}, ${reviewId}, ${d.sha256}, ${d.size}, ${d.objectKey}, ${d.filename}, ${d.declaredType},
              ${d.mime}, ${d.source}, ${d.sourceDetail}, ${d.workingDocument ? 'working_document' : 'evidence'},
              ${d.workingDocument?.releaseId ?? null})
      on conflict (review_id, sha256) do nothing
      returning id`;
    if (rows.length > 0) added.push(d);
  }
  return added;
}

/** What a review already holds, for an add-documents submission: hashes, and the counts the limits apply to. */
export async function documentInventory(
  sql: Sql,
  reviewId: string,
): Promise<{ hashes: string[]; documents: number; bytes: number }> {
  const rows = await sql<{ sha256: string; size_bytes: string; role: string }[]>`
    select sha256, size_bytes, role from documents where review_id = ${reviewId}`;
  const evidence = rows.filter((r) => r.role === 'evidence');
  return {
    hashes: rows.map((r) => r.sha256),
    documents: evidence.length,
    bytes: rows.reduce((sum, r) => sum + Number(r.size_bytes), 0),
  };
}

/**
 * Adds documents to an existing review and refreshes its `document_count` (evidence only), in one
 * transaction; returns the documents that were new. The review's limits are checked on what it then
 * holds, inside the transaction: submissions ingested side by side were each checked against what the
 * review held before, and together may pass them (IngestRejection, nothing added).
 */
export async function addDocuments(
  sql: Sql,
  reviewId: string,
  documents: NewDocument[],
  limits: { maxReviewDocuments: number; maxReviewBytes: number },
): Promise<{ added: NewDocument[]; evidenceAdded: number }> {
  return sql.begin(async (tx) => {
    // The workflow records a review's submissions one at a time; an activity retried while its first
    // attempt still runs would not be: the row lock keeps the counts below exact then too.
    const [review] = await tx`select id from reviews where id = ${reviewId} for update`;
    // Deleted while the documents were ingested (the API found it just before): nothing is added.
    if (!review) throw new IngestRejection('review_not_found', 'No such review.');
    const added = await insertDocuments(tx, reviewId, documents);
    const [held] = await tx<{ evidence: number; bytes: string }[]>`
      select count(*) filter (where role = 'evidence')::int as evidence, coalesce(sum(size_bytes), 0)::text as bytes
        from documents where review_id = ${reviewId}`;
    checkReviewLimits({ documents: held!.evidence, bytes: Number(held!.bytes) }, limits);
    await tx`
      update reviews set document_count = ${held!.evidence}, updated_at = now() where id = ${reviewId}`;
    return { added, evidenceAdded: added.filter((d) => !d.workingDocument).length };
  });
}

export async function documentKeys(sql: Sql, reviewId: string): Promise<string[]> {
  const rows = await sql<
    { object_key: string }[]
  >`select object_key from documents where review_id = ${reviewId} order by created_at, id`;
  return rows.map((r) => r.object_key);
}

/** A review's evidence documents in the order they arrived: what an analysis reads. */
export async function evidenceDocuments(
  sql: Sql,
  reviewId: string,
): Promise<{ id: string; filename: string; mime: string; objectKey: string }[]> {
  const rows = await sql<{ id: string; filename: string; detected_type: string; object_key: string }[]>`
    select id, filename, detected_type, object_key from documents
     where review_id = ${reviewId} and role = 'evidence'
     order by created_at, id`;
  return rows.map((r) => ({ id: r.id, filename: r.filename, mime: r.detected_type, objectKey: r.object_key }));
}

/** Records each document's class as the last analysis found it (null: unreadable). */
export async function setDocumentClasses(
  sql: Sql,
  classes: { id: string; documentClass: string | null }[],
): Promise<void> {
  if (classes.length === 0) return;
  await sql`
    update documents set document_class = u.cls
      from (select unnest(${sql.array(classes.map((c) => c.id))}::uuid[]) as id,
                   unnest(${sql.array(classes.map((c) => c.documentClass ?? 'unreadable'))}::text[]) as cls) u
     where documents.id = u.id`;
}
