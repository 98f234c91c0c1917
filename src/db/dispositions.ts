// Dispositions as they were judged: one row per decision read from a working document. The applied ones
// stand, the latest per finding winning, and shape the releases after them.
import { randomUUID } from 'node:crypto';
import type { Queryable, Sql } from './client.js';
import type { JudgedDisposition, StandingDecision } from '../working-document/decisions.js';
import { DISPOSITION_DECISIONS, UNRECOGNISED_DECISION, type Disposition } from '../reviews/add-documents.js';

/**
 * Judges a working document's decisions and stores them, once: reading the same document again returns
 * what was stored the first time (a retried activity must not judge its own decisions as "already so").
 */
/** Who sent a working document's decisions: the request's API key and X-Request-Id (null in runs from before). */
export interface DecisionSender {
  apiKeyId: string | null;
  requestId: string | null;
}

export async function recordDispositions(
  sql: Sql,
  w: { reviewId: string; releaseId: string; workingDocumentKey: string; sentBy: DecisionSender },
  judge: (standing: StandingDecision[]) => JudgedDisposition[],
): Promise<Disposition[]> {
  return sql.begin(async (t) => {
    // Decisions on one review are judged one document at a time.
    await t`select pg_advisory_xact_lock(hashtextextended(${`dispositions:${w.reviewId}`}, 0))`;
    // Rows judged before dispositions named their finding's id have its code there (the id of a
    // finding that has no subject); before decisions were an enum, an unrecognised one was stored as given.
    const stored = await t<Disposition[]>`
      select finding, coalesce(finding_key, finding) as finding_id,
             case when decision in ${t(DISPOSITION_DECISIONS)} then decision else ${UNRECOGNISED_DECISION} end
               as decision,
             outcome, detail
        from dispositions
       where review_id = ${w.reviewId} and working_document_key = ${w.workingDocumentKey}
       order by created_at, id`;
    if (stored.length > 0) return stored.map((d) => ({ ...d }));
    const judged = judge(await activeDecisions(t, w.reviewId));
    for (const d of judged) {
      await t`
        insert into dispositions (id, review_id, release_id, finding, finding_key, decision, outcome, detail, comment,
                                  working_document_key, api_key_id, request_id, created_at)
        values (${randomUUID()}, ${w.reviewId}, ${w.releaseId}, ${d.finding}, ${d.finding_id}, ${d.decision},
                ${d.outcome}, ${d.detail}, ${d.comment}, ${w.workingDocumentKey}, ${w.sentBy.apiKeyId},
                ${w.sentBy.requestId}, clock_timestamp())`;
    }
    return judged.map(({ finding, finding_id, decision, outcome, detail }) => ({
      finding,
      finding_id,
      decision,
      outcome,
      detail,
    }));
  });
}

/**
 * The decision standing on each finding of a review: the latest applied. With `answering`, only those
 * read from the working document of that release (what an amendment of it lists as changed).
 */
export async function activeDecisions(
  sql: Queryable,
  reviewId: string,
  o: { answering?: string } = {},
): Promise<StandingDecision[]> {
  const rows = await sql<
    {
      finding_key: string;
      decision: StandingDecision['decision'];
      comment: string | null;
      prefix: string | null;
      label: string | null;
      request_id: string | null;
      created_at: Date;
    }[]
  >`
    select distinct on (d.finding_key) d.finding_key, d.decision, d.comment, k.prefix, k.label,
    d.request_id, d.created_at
      from dispositions d left join api_keys k on k.id = d.api_key_id
     where d.review_id = ${reviewId} and d.outcome = 'applied' and d.finding_key is not null
       and (${o.answering ?? null}::uuid is null or d.release_id = ${o.answering ?? null}::uuid)
     order by d.finding_key, d.created_at desc, d.id desc`;
  return rows.map((r) => ({
    findingKey: r.finding_key,
    decision: r.decision,
    comment: r.comment,
    sentBy: senderOf(r),
    decidedAt: r.created_at.toISOString(),
  }));
}

/** "API key rk_live_ab12cd (Loan ops), request 7f3…": how an operator reads who sent a decision. */
function senderOf(r: { prefix: string | null; label: string | null; request_id: string | null }): string | null {
  const key = r.prefix === null ? null : `API key ${r.prefix}${r.label ? ` (${r.label})` : ''}`;
  const request = r.request_id === null ? null : `request ${r.request_id}`;
  return key && request ? `${key}, ${request}` : (key ?? request);
}
