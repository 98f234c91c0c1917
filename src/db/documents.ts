// The documents of a review: one row per distinct file (by SHA-256), pointing at its object in MinIO.
import { randomUUID } from 'node:crypto';
import type { Sql } from './client.js';
import type { IngestedDocument } from '../ingest/package.js';

export type NewDocument = Omit<IngestedDocument, 'tempKey'> & { objectKey: string };

/** Inserts documents (idempotent per review and hash); returns how many rows are new. */
export async function insertDocuments(sql: Sql, reviewId: string, documents: NewDocument[]): Promise<number> {
  let added = 0;
  for (const d of documents) {
    const rows = await sql`
      insert into documents (id, review_id, sha256, size_bytes, object_key, filename, declared_type, detected_type, source, source_detail)
      values (${randomUUID()}, ${reviewId}, ${d.sha256}, ${d.size}, ${d.objectKey}, ${d.filename}, ${d.declaredType},
              ${d.mime}, ${d.source}, ${d.sourceDetail})
      on conflict (review_id, sha256) do nothing
      returning id`;
    added += rows.length;
  }
  return added;
}

export async function documentKeys(sql: Sql, reviewId: string): Promise<string[]> {
  const rows = await sql<{ object_key: string }[]>`select object_key from documents where review_id = ${reviewId} order by created_at, id`;
  return rows.map((r) => r.object_key);
}
