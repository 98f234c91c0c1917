// Dispositions as they were judged: one row per decision read from a working document. The applied ones
// stand, the latest per finding winning, and shape the releases after them.
import { randomUUID } from 'node:crypto';
import type { Queryable, Sql } from './client.js';
import type { JudgedDisposition, StandingDecision } from '../working-document/decisions.js';
import type { Disposition } from '../reviews/add-documents.js';

/**
 * Judges a working document's decisions and stores them, once: reading the same document again returns
 * what was stored the first time (a retried activity must not judge its own decisions as "already so").
 */
export async function recordDispositions(
  sql: Sql,
  w: { reviewId: string; releaseId: string; workingDocumentKey: string },
  judge: (standing: StandingDecision[]) => JudgedDisposition[],
): Promise<Disposition[]> {
  return sql.begin(async (t) => {
    // Decisions on one review are judged one document at a time.
    await t`select pg_advisory_xact_lock(hashtextextended(${`dispositions:${w.reviewId}`}, 0))`;
    // Rows judged before dispositions named their finding's id have its code there (the id of a
    // finding that has no subject).
    const stored = await t<Disposition[]>`
      select finding, coalesce(finding_key, finding) as finding_id, decision, outcome, detail from dispositions
       where review_id = ${w.reviewId} and working_document_key = ${w.workingDocumentKey}
       order by created_at, id`;
    if (stored.length > 0) return stored.map((d) => ({ ...d }));
    const judged = judge(await activeDecisions(t, w.reviewId));
    for (const d of judged) {
      await t`
        insert into dispositions (id, review_id, release_id, finding, finding_key, decision, outcome, detail, comment, working_document_key, created_at)
        values (${randomUUID()}, ${w.reviewId}, ${w.releaseId}, ${d.finding}, ${d.finding_id}, ${d.decision}, ${d.outcome},
                ${d.detail}, ${d.comment}, ${w.workingDocumentKey}, clock_timestamp())`;
    }
    return judged.map(({ finding, finding_id, decision, outcome, detail }) => ({ finding, finding_id, decision, outcome, detail }));
  });
}

export async function activeDecisions(sql: Queryable, reviewId: string): Promise<StandingDecision[]> {
  const rows = await sql<{ finding_key: string; decision: StandingDecision['decision']; comment: string | null }[]>`
    select distinct on (finding_key) finding_key, decision, comment
      from dispositions
     where review_id = ${reviewId} and outcome = 'applied' and finding_key is not null
     order by finding_key, created_at desc, id desc`;
  return rows.map((r) => ({ findingKey: r.finding_key, decision: r.decision, comment: r.comment }));
}
