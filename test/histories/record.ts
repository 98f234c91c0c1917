// Records the workflow histories that test/workflow/replay.test.ts replays: real runs of the review workflow on a
// throw-away stack, one per path through it, written as JSON beside this file. Run with
// `npm run histories:record` (it starts and stops the stack). Commit the files it writes.
import { writeFile } from 'node:fs/promises';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { ReviewSchema, type Review } from '../../src/reviews/review.js';
import { ReportSchema } from '../../src/reviews/report.js';
import { approveUpdate, deleteReviewUpdate } from '../../workflows/messages.js';
import { historiesDeletionId } from '../../workflows/history-deletion.js';
import type { retentionWorkflow } from '../../workflows/retention.js';
import { findReviewRecord } from '../../src/db/reviews.js';
import { continuingRun, updateReviewRun } from '../../src/temporal/review-runs.js';
import { corruptPdf, fillWorkingDocument, longPdf, pdf } from '../support/fixtures.js';
import { call, createBody, form } from '../support/http.js';
import { REJECTED_CREATE } from '../../src/temporal/search-attribute-keys.js';
import { registerEndpoint, waitForInternalState, waitForReview } from '../support/reviews.js';
import {
  closeShared,
  config,
  db,
  newOrganization,
  stack,
  temporalClient,
  type TestOrganization,
} from '../support/stack.js';
import { ENCRYPTED_ENCODING, PayloadEncryptionCodec } from '../../src/temporal/payload-codec.js';
import { payloadFromJson, payloadToJson } from '../../src/temporal/codec-server.js';
import { encodingOf, payloadsIn } from '../support/history-payloads.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const receiver = await WebhookReceiver.start();
const client = await temporalClient();

async function create(key: string, files: { name: string; data: Buffer }[]): Promise<Review> {
  const res = await call(stack.apiUrl, 'POST', '/reviews', { key, form: form(files) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return ReviewSchema.parse(res.body);
}

async function add(org: TestOrganization, reviewId: string, files: { name: string; data: Buffer }[]): Promise<void> {
  const res = await call(stack.apiUrl, 'POST', `/reviews/${reviewId}/documents`, {
    key: org.liveKey,
    form: form(files),
  });
  if (res.status !== 200) throw new Error(`add: ${res.status} ${res.text}`);
}

const codec = new PayloadEncryptionCodec(config.temporal.payloadKeys);

/**
 * The history's JSON with every sealed payload opened in place: the files are read by people, and replay
 * either way.
 */
async function opened(json: unknown): Promise<unknown> {
  for (const { payload } of payloadsIn(json)) {
    if (encodingOf(payload) !== ENCRYPTED_ENCODING) continue;
    const [open] = await codec.decode([payloadFromJson(payload)]);
    Object.assign(payload, payloadToJson(open!));
  }
  return json;
}

/** Waits until the review's latest run has completed (its webhooks delivered), then writes its history. */
async function save(name: string, reviewId: string): Promise<void> {
  const handle = client.workflow.getHandle(reviewId);
  await handle.result();
  const history = await opened(JSON.parse(historyToJSON(await handle.fetchHistory())));
  await writeFile(new URL(`./${name}.json`, import.meta.url), `${JSON.stringify(history, null, 2)}\n`);
  console.log(`recorded ${name}`);
}

/** The run of the organization's one refused create, once Temporal's visibility lists it. */
async function refusedRun(organizationId: string): Promise<string> {
  const query = `OrgId = '${organizationId}' AND InternalState = '${REJECTED_CREATE}'`;
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    for await (const run of client.workflow.list({ query })) return run.workflowId;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no refused create listed for ${organizationId}`);
}

const org = await newOrganization();
await registerEndpoint(org.liveKey, receiver.url);
await registerEndpoint(org.sandboxKey, receiver.url);
const completed = (r: Review) => r.status === 'completed';

// create → analysing → rendering → released (review.completed); the run completes
const plain = await create(org.liveKey, [
  { name: 'cd.pdf', data: await pdf('Closing Disclosure') },
  { name: 'note.pdf', data: await pdf('NOTE') },
]);
await waitForReview(org.liveKey, plain.review_id, completed);
await save('create-completed', plain.review_id);

// create → awaiting_documents → add a Closing Disclosure → completed
const waiting = await create(org.liveKey, [{ name: 'paystub.pdf', data: await pdf('Earnings Statement') }]);
await waitForInternalState(waiting.review_id, 'awaiting_documents');
await add(org, waiting.review_id, [{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]);
await waitForReview(org.liveKey, waiting.review_id, completed);
await save('create-awaiting-add-completed', waiting.review_id);

// completed, the run completes → the working document (cleared, disputed) with new evidence starts a run that
// continues the review → release gate → approved (the update) → amended; that run completes too
const amended = await create(org.liveKey, [
  { name: 'cd.pdf', data: await pdf('Closing Disclosure') },
  { name: 'note.pdf', data: await pdf('NOTE') },
]);
await waitForReview(org.liveKey, amended.review_id, completed);
await client.workflow.getHandle(amended.review_id).result();
const report = ReportSchema.parse(
  (await call(stack.apiUrl, 'GET', `/reviews/${amended.review_id}/report`, { key: org.liveKey })).body,
);
const filled = await fillWorkingDocument(Buffer.from(await (await fetch(report.report_pdf_url)).arrayBuffer()), {
  'DOC-002': { decision: 'cleared' },
  'DOC-001:urla': { decision: 'disputed', comment: 'in the lender file' },
});
await add(org, amended.review_id, [
  { name: 'answers.pdf', data: filled },
  { name: 'le.pdf', data: await pdf('Loan Estimate') },
]);
await waitForInternalState(amended.review_id, 'release_gate');
await client.workflow.getHandle(amended.review_id).executeUpdate(approveUpdate);
await waitForReview(org.liveKey, amended.review_id, completed);
await save('amendment', amended.review_id);

// create → analysing → failed (review.failed); the run closes
const failed = await create(org.liveKey, [{ name: 'broken.pdf', data: corruptPdf }]);
await waitForReview(org.liveKey, failed.review_id, (r) => r.status === 'failed');
await save('failure', failed.review_id);

// by source URL: the create's ingest activity fetches the signed URL's package → analysing → released
const bySource = await call(stack.apiUrl, 'POST', '/reviews', { key: org.liveKey, json: createBody() });
if (bySource.status !== 201) throw new Error(`create by source URL: ${bySource.status} ${bySource.text}`);
const sourced = ReviewSchema.parse(bySource.body);
await waitForReview(org.liveKey, sourced.review_id, (r) => r.status !== 'processing' && r.status !== 'queued');
await save('create-source-url', sourced.review_id);

// refused: the create's ingest activity refuses an empty file (document_required); the run ends, no review
const refusedOrg = await newOrganization();
const refused = await call(stack.apiUrl, 'POST', '/reviews', {
  key: refusedOrg.liveKey,
  form: form([{ name: 'empty.pdf', data: Buffer.alloc(0) }]),
});
if (refused.status !== 400) throw new Error(`refused create: ${refused.status} ${refused.text}`);
await save('create-refused', await refusedRun(refusedOrg.id));

// sandbox: create → released at once (review.completed to the sandbox endpoint); the run completes
const sandbox = await create(org.sandboxKey, [{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]);
await save('sandbox', sandbox.review_id);

// deleted mid-analysis: the deleteReview update (as DELETE sends it) stops the analysis, the review is
// purged, the run ends
const deletion = (requestedBy: string) => ({ requestedBy, requestedAt: new Date().toISOString() });
async function deleteThroughWorkflow(reviewId: string): Promise<void> {
  const found = await findReviewRecord(db(), reviewId);
  if (!found) throw new Error(`no review ${reviewId}`);
  await updateReviewRun(() =>
    client.workflow.executeUpdateWithStart(deleteReviewUpdate, {
      args: [deletion('api_key:histories-recorder')],
      startWorkflowOperation: continuingRun(config.temporal.taskQueue, found.organizationId, found.record),
    }),
  );
}
const analysing = await create(org.liveKey, [
  { name: 'cd-with-exhibits.pdf', data: await longPdf('Closing Disclosure', 150) },
]);
await waitForInternalState(analysing.review_id, 'analysing');
await deleteThroughWorkflow(analysing.review_id);
await save('deletion-mid-analysis', analysing.review_id);

// deleted once released: the run had completed, so the update starts a run that continues the review and
// deletes it
const released = await create(org.liveKey, [{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]);
await waitForReview(org.liveKey, released.review_id, completed);
await client.workflow.getHandle(released.review_id).result();
await deleteThroughWorkflow(released.review_id);
await save('deletion-after-release', released.review_id);

// the retention's sweep, as its schedule starts it: one organization with a retention of 30 days, one review
// at rest 31 days, deleted through its own workflow
const retaining = await newOrganization({ retentionDays: 30 });
const expired = await create(retaining.liveKey, [{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]);
await waitForReview(retaining.liveKey, expired.review_id, completed);
await db()`update reviews set updated_at = now() - interval '31 days' where id = ${expired.review_id}`;
const sweep = await client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', {
  workflowId: `review-retention-recorded-${expired.review_id}`,
  taskQueue: config.temporal.taskQueue,
});
await save('retention-sweep', sweep.workflowId);

// the workflow a deletion leaves to delete the review's histories (here, those the recorder kept: it asked
// for the deletion through the workflow alone): a minute after the deletion
await save('history-deletion', historiesDeletionId(analysing.review_id));

await receiver.close();
await closeShared();
