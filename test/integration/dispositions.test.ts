// Decisions read from a working document are stored once, with who sent them: reading the same document
// again (a retried activity) answers what was stored, and the standing decisions name their sender.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { hashApiKey } from '../../src/auth/api-keys.js';
import { activeDecisions, recordDispositions } from '../../src/db/dispositions.js';
import { findApiKeyByHash } from '../../src/db/keys.js';
import { insertReview } from '../../src/db/reviews.js';
import type { JudgedDisposition } from '../../src/working-document/decisions.js';
import { closeShared, db, newOrganization } from '../support/stack.js';

test.after.always(closeShared);

async function releasedReview(organizationId: string): Promise<{ reviewId: string; releaseId: string }> {
  const reviewId = randomUUID();
  const releaseId = randomUUID();
  await insertReview(db(), {
    id: reviewId,
    organizationId,
    sandbox: false,
    status: 'completed',
    internalState: 'released',
    reviewType: 'mortgage_v1',
    label: null,
    referenceId: null,
    metadata: null,
    createdAt: new Date(),
  });
  await db()`insert into releases (id, review_id, sequence, outcome, summary, issues, report_object_key, generated_at)
             values (${releaseId}, ${reviewId}, 1, 'issues_found', '{}'::jsonb, '[]'::jsonb,
             ${`reports/${reviewId}/1.pdf`}, now())`;
  return { reviewId, releaseId };
}

const judged = (
  finding_id: string,
  decision: JudgedDisposition['decision'],
  outcome: JudgedDisposition['outcome'],
  comment: string | null = null,
): JudgedDisposition => ({
  finding: finding_id.split(':')[0]!,
  finding_id,
  decision,
  outcome,
  detail: `${finding_id} ${outcome}`,
  comment,
  cureDocument: null,
});

test(
  'a working document read again answers what was stored, finding ids and unrecognised decisions ' +
    'included; standing decisions name their sender',
  async (t) => {
    const org = await newOrganization();
    const key = await findApiKeyByHash(db(), hashApiKey(org.liveKey));
    const { reviewId, releaseId } = await releasedReview(org.id);
    const sentBy = { apiKeyId: key!.id, requestId: 'req-disputes-1' };
    const w = { reviewId, releaseId, workingDocumentKey: `documents/${reviewId}/answers.pdf`, sentBy };
    const first = await recordDispositions(db(), w, () => [
      judged('DOC-001:urla', 'disputed', 'applied', 'The URLA is in the lender file'),
      judged('DOC-001:note', 'unrecognised', 'failed'),
    ]);
    const again = await recordDispositions(db(), w, () => {
      throw new Error('judged twice');
    });
    t.deepEqual(again, first);
    t.deepEqual(
      again.map((d) => [d.finding, d.finding_id, d.decision, d.outcome]),
      [
        ['DOC-001', 'DOC-001:urla', 'disputed', 'applied'],
        ['DOC-001', 'DOC-001:note', 'unrecognised', 'failed'],
      ],
    );
    const [standing] = await activeDecisions(db(), reviewId);
    t.like(standing, { findingKey: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' });
    t.regex(standing!.sentBy ?? '', /^API key rk_live_\w+, request req-disputes-1$/);
  },
);

test(
  'a decision stored before decisions were an enum, or before findings had ids, reads back as ' +
    'unrecognised with its code as id',
  async (t) => {
    const org = await newOrganization();
    const { reviewId, releaseId } = await releasedReview(org.id);
    const workingDocumentKey = `documents/${reviewId}/old-answers.pdf`;
    await db()`insert into dispositions (id, review_id, release_id, finding, decision, outcome, detail,
      working_document_key)
             values (${randomUUID()}, ${reviewId}, ${releaseId}, 'DOC-002', 'approve', 'failed',
             'The decision "approve" is not one of cleared, disputed, cure_attached.', ${workingDocumentKey})`;
    const stored = await recordDispositions(
      db(),
      { reviewId, releaseId, workingDocumentKey, sentBy: { apiKeyId: null, requestId: null } },
      () => [],
    );
    t.deepEqual(
      stored.map((d) => [d.finding, d.finding_id, d.decision, d.outcome]),
      [['DOC-002', 'DOC-002', 'unrecognised', 'failed']],
    );
  },
);
