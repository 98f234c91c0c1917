// The review workflow on the real stack (Temporal dev server, Postgres, MinIO): every transition of a
// live review as ARCHITECTURE.md draws it, watched from the outside: the API, the transition log in
// Postgres, search attributes and the workflow's query.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { readFileSync } from 'node:fs';
import { renderPdfPage } from '../../src/qc/reading/render.js';
import { AddDocumentsResultSchema } from '../../src/reviews/add-documents.js';
import { ReportSchema, type Report } from '../../src/reviews/report.js';
import { ReviewSchema, type Review } from '../../src/reviews/review.js';
import { approveUpdate, capacityFreedSignal, holdUpdate } from '../../workflows/messages.js';
import { InternalStateKey, ReviewStatusKey } from '../../src/temporal/search-attribute-keys.js';
import { admin, runAdmin } from '../support/admin.js';
import { figureAlts, pagesText } from '../support/pdf-text.js';
import { PDFDocument } from 'pdf-lib';
import { formatInstant } from '../../src/report/wording.js';
import { corruptPdf, fillWorkingDocument, pdf, png } from '../support/fixtures.js';
import { call, errorCode, form, whileUnavailable } from '../support/http.js';
import {
  describedAt,
  operatorRefusal,
  registerEndpoint,
  transitions,
  waitForInternalState,
  waitForReview,
  workflowMetadata,
  workflowState,
} from '../support/reviews.js';
import { reviewTransitions } from '../../src/db/reviews.js';
import {
  closeShared,
  config,
  db,
  newOrganization,
  stack,
  temporalClient,
  type TestOrganization,
} from '../support/stack.js';
import { FaultyProxy } from '../support/faulty-proxy.js';
import { TestServices } from '../support/services.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, opts);

const docs = {
  cd: () => pdf('Closing Disclosure'),
  note: () => pdf('NOTE'),
  le: () => pdf('Loan Estimate'),
  payStub: () => pdf('Earnings Statement'),
};

/** Creates a review as an integrator should: a 503 (a busy machine) is retried with the same Idempotency-Key. */
async function create(
  org: TestOrganization,
  files: { name: string; data: Buffer }[],
  fields: Record<string, string> = {},
): Promise<Review> {
  const headers = { 'idempotency-key': randomUUID() };
  const res = await whileUnavailable(
    () => api('POST', '/reviews', { key: org.liveKey, headers, form: form(files, fields) }),
    60_000,
  );
  if (res.status !== 201 && res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  const review = ReviewSchema.parse(res.body);
  return review;
}

async function report(org: TestOrganization, reviewId: string): Promise<Report> {
  const res = await api('GET', `/reviews/${reviewId}/report`, { key: org.liveKey });
  if (res.status !== 200) throw new Error(`report: ${res.status} ${res.text}`);
  return ReportSchema.parse(res.body);
}

const completed = (r: Review) => r.status === 'completed';
const codes = (r: Report) => r.issues.map((i) => i.code);

test('create → analysing → rendering → released: completed with the report, review.completed delivered, then the run completes', async (t) => {
  const org = await newOrganization();
  // The receiver takes 5 s to answer: the run is in flight until the webhook is done.
  const receiver = (await WebhookReceiver.start()).script([{ status: 200, delayMs: 5_000 }]);
  await registerEndpoint(org.liveKey, receiver.url);
  const created = await create(
    org,
    [
      { name: 'cd.pdf', data: await docs.cd() },
      { name: 'note.pdf', data: await docs.note() },
    ],
    { reference_id: 'LN-flow-1' },
  );
  t.like(created, { status: 'processing', report_available: false });

  const done = await waitForReview(org.liveKey, created.review_id, completed);
  t.true(done.report_available);
  t.deepEqual(await transitions(created.review_id), ['ingesting', 'analysing', 'rendering', 'released']);
  const handle = (await temporalClient()).workflow.getHandle(created.review_id);
  await receiver.waitFor(1);
  t.is((await handle.describe()).status.name, 'RUNNING', 'released, its webhook still being delivered');

  const r = await report(org, created.review_id);
  t.like(r, {
    status: 'completed',
    outcome: 'issues_found',
    sandbox: false,
    summary: { total: 6, critical: 3, high: 2, medium: 1, low: 0, info: 0 },
  });
  // A Closing Disclosure that prints no APR is itself a finding (APR-006); no bank statement is DOC-004.
  t.deepEqual(codes(r), ['DOC-001', 'DOC-001', 'DOC-001', 'DOC-002', 'DOC-004', 'APR-006']);
  t.true(r.issues.some((i) => /No Loan Estimate was found among the 2 document\(s\)/.test(i.summary)));
  // Findings of one code are told apart by their id; each cites what it rests on and the provision it applies.
  t.deepEqual(
    r.issues.map((i) => i.id),
    ['DOC-001:security_instrument', 'DOC-001:loan_estimate', 'DOC-001:urla', 'DOC-002', 'DOC-004', 'APR-006'],
  );
  t.like(
    r.issues.find((i) => i.id === 'APR-006'),
    { evidence: [{ document: 'cd.pdf', page: 1, field: 'apr', value: null }], regulation: '12 CFR 1026.38(o)(4)' },
  );
  t.like(
    r.issues.find((i) => i.id === 'DOC-001:loan_estimate'),
    { evidence: [], regulation: '12 CFR 1026.19(e)(1)(i)' },
  );
  // The report PDF: page 1 has the loan as read and the documents reviewed, the release in words.
  const [page1] = await pagesText(new Uint8Array(await (await fetch(r.report_pdf_url)).arrayBuffer()));
  t.regex(page1!, /Loan LN-flow-1\nRelease 1, \d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC\n/);
  t.regex(page1!, /Issues found: 6 findings to review, 5 critical or high findings among them\./);
  t.regex(page1!, /3 critical 2 high 1 medium 0 low 0 info/);
  // (One submission's files are recorded together, in no particular order.)
  t.regex(
    page1!,
    /Documents reviewed\nFile Found Pages Note\n(cd\.pdf Closing Disclosure 1\nnote\.pdf Note 1|note\.pdf Note 1\ncd\.pdf Closing Disclosure 1)\n/,
  );

  const [delivery] = await receiver.waitFor(1);
  const sent = JSON.parse(delivery!.body) as { id: string; occurred_at: string };
  const [release] = await db()<{ id: string }[]>`select id from releases where review_id = ${created.review_id}`;
  t.deepEqual(sent, {
    id: sent.id,
    event: 'review.completed',
    review_id: created.review_id,
    release_id: release!.id,
    reference_id: 'LN-flow-1',
    status: 'completed',
    occurred_at: sent.occurred_at,
  });
  t.regex(sent.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // One time for the release: the Report's generated_at, the webhook's occurred_at, the PDF's date and page 1.
  t.is(sent.occurred_at, r.generated_at);
  const pdfBytes = new Uint8Array(await (await fetch(r.report_pdf_url)).arrayBuffer());
  t.is(
    (await PDFDocument.load(pdfBytes)).getCreationDate()?.getTime(),
    Math.floor(Date.parse(r.generated_at) / 1000) * 1000,
  );
  t.regex(page1!, new RegExp(`Release 1, ${formatInstant(new Date(r.generated_at))}\n`));
  const described = await describedAt(created.review_id, 'released');
  t.is(described.typedSearchAttributes.get(ReviewStatusKey), 'completed');
  t.is(described.typedSearchAttributes.get(InternalStateKey), 'released');
  t.like(await workflowState(created.review_id), {
    internalState: 'released',
    releases: 1,
    lastAnalysis: { documents: 2, primaryPresent: true, findings: 6 },
  });
  const classes = await db()`select filename, document_class from documents where review_id = ${created.review_id}
        order by filename`;
  t.deepEqual(
    classes.map((c) => [c.filename, c.document_class]),
    [
      ['cd.pdf', 'closing_disclosure'],
      ['note.pdf', 'note'],
    ],
  );

  // Once the webhook is done, nothing is in flight: the run completes, leaving the UI's Running list.
  t.like(await handle.result(), { internalState: 'released', releases: 1 });
  const closed = await handle.describe();
  t.is(closed.status.name, 'COMPLETED');
  t.is(closed.typedSearchAttributes.get(ReviewStatusKey), 'completed');
  const [attempt] = await db()<
    { attempted_at: Date; duration_ms: number }[]
  >`select attempted_at, duration_ms from webhook_deliveries where review_id = ${created.review_id}`;
  t.true(attempt!.duration_ms >= 4_900, `delivered in ${attempt!.duration_ms} ms`);
  t.true(closed.closeTime!.getTime() >= attempt!.attempted_at.getTime(), 'closed after the delivery was recorded');
  await receiver.close();
});

test('no primary document: awaiting_documents, then adding a Closing Disclosure completes it', async (t) => {
  const org = await newOrganization();
  const created = await create(org, [{ name: 'paystub.pdf', data: await docs.payStub() }]);
  const waiting = await waitForReview(org.liveKey, created.review_id, (r) => r.status === 'awaiting_documents');
  t.false(waiting.report_available);
  t.is(errorCode(await api('GET', `/reviews/${created.review_id}/report`, { key: org.liveKey })), 'report_not_ready');
  const state = await workflowState(created.review_id);
  t.truthy(state.awaitingDeadline);
  // The default deadline is 7 days (decisions.md, "Awaiting documents").
  const days = (Date.parse(state.awaitingDeadline!) - Date.now()) / 86_400_000;
  t.true(days > 6.9 && days <= 7, `deadline ${state.awaitingDeadline}`);

  const added = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'cd.pdf', data: await docs.cd() }]),
  });
  t.is(added.status, 200, added.text);
  t.like(AddDocumentsResultSchema.parse(added.body), { status: 'processing', documents_ingested: 1 });
  await waitForReview(org.liveKey, created.review_id, completed);
  t.deepEqual(await transitions(created.review_id), [
    'ingesting',
    'analysing',
    'awaiting_documents',
    'analysing',
    'rendering',
    'released',
  ]);
  t.false(codes(await report(org, created.review_id)).includes('DOC-009'));
});

test('awaiting_documents past its deadline: completed with the missing-document findings', async (t) => {
  const org = await newOrganization({ awaitingDocumentsSeconds: 2 });
  const created = await create(org, [{ name: 'paystub.pdf', data: await docs.payStub() }]);
  const done = await waitForReview(org.liveKey, created.review_id, completed);
  t.true(done.report_available);
  // The transition log, not a poll, shows the wait: a poll can miss two seconds on a loaded machine.
  const log = await reviewTransitions(db(), created.review_id);
  t.deepEqual(
    log.map((s) => s.internalState),
    ['ingesting', 'analysing', 'awaiting_documents', 'analysing', 'rendering', 'released'],
  );
  const waited = log[3]!.at.getTime() - log[2]!.at.getTime();
  t.true(waited >= 2_000, `left awaiting_documents after ${waited} ms`);
  const r = await report(org, created.review_id);
  t.deepEqual(codes(r), ['DOC-001', 'DOC-001', 'DOC-001', 'DOC-001', 'DOC-001', 'DOC-002', 'DOC-004']);
  t.like(r.summary, { total: 7, critical: 5, high: 1, medium: 1 });
  t.like(await workflowState(created.review_id), { deadlinePassed: true, releases: 1 });
});

test('new evidence on a completed review: processing at once, then amended (review.amended, a new release)', async (t) => {
  const org = await newOrganization();
  const receiver = await WebhookReceiver.start();
  await registerEndpoint(org.liveKey, receiver.url);
  const created = await create(org, [
    { name: 'cd.pdf', data: await docs.cd() },
    { name: 'note.pdf', data: await docs.note() },
  ]);
  await waitForReview(org.liveKey, created.review_id, completed);
  const first = await report(org, created.review_id);

  const added = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'le.pdf', data: await docs.le() }]),
  });
  t.is(added.status, 200, added.text);
  t.like(AddDocumentsResultSchema.parse(added.body), {
    status: 'processing',
    documents_ingested: 1,
    dispositions: [],
  });
  const during = ReviewSchema.parse((await api('GET', `/reviews/${created.review_id}`, { key: org.liveKey })).body);
  // Not yet amended, or amended already; never `completed` with the old report once the answer said processing.
  t.true(
    during.status === 'processing' ||
      (await transitions(created.review_id)).filter((s) => s === 'released').length === 2,
  );

  await waitForReview(org.liveKey, created.review_id, (r) => r.status === 'completed' && r.report_available);
  await receiver.waitFor(2);
  const second = await report(org, created.review_id);
  t.deepEqual(
    codes(second),
    ['DOC-001', 'DOC-001', 'DOC-002', 'DOC-004', 'APR-006'],
    'the Loan Estimate is no longer missing',
  );
  t.true(Date.parse(second.generated_at) > Date.parse(first.generated_at));
  t.not(second.report_pdf_url, first.report_pdf_url);
  t.deepEqual(
    receiver.payloads().map((p) => [p.event, p.status]),
    [
      ['review.completed', 'completed'],
      ['review.amended', 'completed'],
    ],
  );
  // Two events, two ids: each announces its own release.
  const releases = await db()<
    { id: string }[]
  >`select id from releases where review_id = ${created.review_id} order by sequence`;
  t.deepEqual(
    receiver.payloads().map((p) => p.release_id),
    releases.map((r) => r.id),
  );
  t.not(receiver.payloads()[0]!.id, receiver.payloads()[1]!.id);
  t.deepEqual((await transitions(created.review_id)).slice(-4), ['released', 'amending', 'rendering', 'released']);
  t.is((await db()`select count(*)::int as n from releases where review_id = ${created.review_id}`)[0]!.n, 2);
  // The amended report says what it amends and what changed.
  const [page1] = await pagesText(new Uint8Array(await (await fetch(second.report_pdf_url)).arrayBuffer()));
  t.regex(page1!, /Release 2, .+ UTC — amends release 1 of .+ UTC\n/);
  t.regex(
    page1!,
    /Changes since release 1\n.*\nResolved DOC-001:loan_estimate Core document missing no longer found in the documents/,
  );
  await receiver.close();
});

test('a scanned Closing Disclosure (PNG) is read by OCR in the worker: classified, its figures checked, and pictured in the report where they were read', async (t) => {
  const org = await newOrganization();
  const cd = readFileSync(new URL('../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url));
  const le = readFileSync(new URL('../corpus/cfpb/le_sample_fixed_rate_h24b.pdf', import.meta.url));
  // Page 1 of the form (file page 2) as a scanner would send it.
  const scan = Buffer.from(await renderPdfPage(new Uint8Array(cd), 2, 200));
  const created = await create(org, [
    { name: 'cd-scan.png', data: scan },
    { name: 'note.pdf', data: await docs.note() },
    { name: 'le.pdf', data: le },
  ]);
  await waitForReview(org.liveKey, created.review_id, completed, 90_000);
  const classes = await db()`select filename, document_class from documents where review_id = ${created.review_id}
        order by filename`;
  t.deepEqual(
    classes.map((c) => [c.filename, c.document_class]),
    [
      ['cd-scan.png', 'closing_disclosure'],
      ['le.pdf', 'loan_estimate'],
      ['note.pdf', 'note'],
    ],
  );
  const r = await report(org, created.review_id);
  t.false(r.issues.some((i) => /No Closing Disclosure/.test(i.summary)));
  // Page 1 carries no Loan Calculations: the APR is missing from what was sent, and the finding cites the scan.
  t.true(
    r.issues.some((i) => i.code === 'APR-006' && i.summary.includes('cd-scan.png')),
    JSON.stringify(r.issues),
  );
  // Evidence is the interface's four fields: where on the page a value stood is the PDF's to show.
  t.true(r.issues.every((i) => i.evidence.every((e) => Object.keys(e).sort().join() === 'document,field,page,value')));
  // The PDF shows each value read off the scan as a picture of the scan around it.
  const alts = await figureAlts(new Uint8Array(await (await fetch(r.report_pdf_url)).arrayBuffer()));
  const fromScan = r.issues.flatMap((i) => i.evidence).filter((e) => e.document === 'cd-scan.png' && e.value !== null);
  t.true(fromScan.length > 0, JSON.stringify(r.issues));
  t.true(
    alts.some((alt) => alt.includes('as printed in cd-scan.png, page 1:')),
    alts.join('\n'),
  );
});

test('a package nothing can be read from: failed, review.failed, no report, no more documents', async (t) => {
  const org = await newOrganization();
  const receiver = await WebhookReceiver.start();
  await registerEndpoint(org.liveKey, receiver.url);
  const created = await create(org, [{ name: 'broken.pdf', data: corruptPdf }]);
  const failed = await waitForReview(org.liveKey, created.review_id, (r) => r.status === 'failed');
  t.false(failed.report_available);
  const rep = await api('GET', `/reviews/${created.review_id}/report`, { key: org.liveKey });
  t.is(rep.status, 422);
  t.is(errorCode(rep), 'review_failed');
  const add = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'cd.pdf', data: await docs.cd() }]),
  });
  t.is(add.status, 422);
  t.is(errorCode(add), 'review_failed');
  await receiver.waitFor(1);
  t.like(receiver.payloads()[0], {
    event: 'review.failed',
    status: 'failed',
    review_id: created.review_id,
    release_id: null,
  });
  t.deepEqual(await transitions(created.review_id), ['ingesting', 'analysing', 'failed']);
  // Its run ends once the webhook is out: a failed review takes nothing more.
  const handle = (await temporalClient()).workflow.getHandle(created.review_id);
  await handle.result();
  t.is((await handle.describe()).status.name, 'COMPLETED');
  t.is((await db()`select count(*)::int as n from releases where review_id = ${created.review_id}`)[0]!.n, 0);
  await receiver.close();
});

test("queued while the organization's analysis slots are all taken; a freed slot lets it through", async (t) => {
  const org = await newOrganization({ maxConcurrentAnalyses: 1 });
  // Another analysis of this organization holds the only slot (as one on another worker would).
  const other = ReviewSchema.parse(
    (await api('POST', '/reviews', { key: org.sandboxKey, form: form([{ name: 'x.png', data: png }]) })).body,
  );
  await db()`insert into analysis_slots (review_id, organization_id, holding) values (${other.review_id},
    ${org.id}, true)`;

  const created = await create(org, [{ name: 'cd.pdf', data: await docs.cd() }]);
  const queued = await waitForReview(org.liveKey, created.review_id, (r) => r.status === 'queued');
  t.false(queued.report_available);
  // Still queued a while later: it does not jump the limit.
  await new Promise((r) => setTimeout(r, 2500));
  t.is(
    ReviewSchema.parse((await api('GET', `/reviews/${created.review_id}`, { key: org.liveKey })).body).status,
    'queued',
  );

  // The holder finishes: it gives the slot back and tells the review waiting longest.
  await db()`delete from analysis_slots where review_id = ${other.review_id}`;
  await (await temporalClient()).workflow.getHandle(created.review_id).signal(capacityFreedSignal);
  // Let through within 25 s, before a waiter's own 30 s re-ask could have: the signal did. (How long its
  // analysis then takes is the analysis worker's share of a loaded machine, not the signal's.)
  await waitForReview(org.liveKey, created.review_id, (r) => r.status !== 'queued', 25_000);
  await waitForReview(org.liveKey, created.review_id, completed);
  t.deepEqual(await transitions(created.review_id), [
    'ingesting',
    'waiting_for_capacity',
    'analysing',
    'rendering',
    'released',
  ]);
  t.is(
    (await db()`select * from analysis_slots where organization_id = ${org.id}`).length,
    0,
    'the slot was given back',
  );
});

test('release gate: operators approve and hold with updates, and one that would do nothing is refused where they see it', async (t) => {
  const holding = await newOrganization({ releasePolicy: 'hold' });
  const held = await create(holding, [{ name: 'cd.pdf', data: await docs.cd() }]);
  await waitForInternalState(held.review_id, 'release_gate');
  t.like(ReviewSchema.parse((await api('GET', `/reviews/${held.review_id}`, { key: holding.liveKey })).body), {
    status: 'processing',
    report_available: false,
  });
  t.is((await api('GET', `/reviews/${held.review_id}/report`, { key: holding.liveKey })).status, 404);
  // What waits is visible: InternalState='release_gate' and the release with its reason.
  t.is((await describedAt(held.review_id, 'release_gate')).typedSearchAttributes.get(InternalStateKey), 'release_gate');
  const waiting = (await workflowState(held.review_id)).gate;
  t.like(waiting, { reason: 'the organization holds every release for approval' });
  const client = await temporalClient();
  const gated = client.workflow.getHandle(held.review_id);
  t.regex(await operatorRefusal(gated.executeUpdate(holdUpdate)), /^A release already waits at the release gate/);
  // The operator takes a while: the release is made when approved.
  await new Promise((r) => setTimeout(r, 2_000));
  const approvedAt = Date.now();
  t.is(
    await gated.executeUpdate(approveUpdate),
    `Approved: release ${waiting!.releaseId} will be published (the organization holds every release for approval).`,
  );
  await waitForReview(holding.liveKey, held.review_id, completed);
  // Released when approved, not when first rendered before the gate: its time and its PDF say so.
  const releasedReport = await report(holding, held.review_id);
  t.true(
    Date.parse(releasedReport.generated_at) >= approvedAt - 250,
    `generated_at ${releasedReport.generated_at}, approved at ${new Date(approvedAt).toISOString()}`,
  );
  const releasedPdf = await PDFDocument.load(
    new Uint8Array(await (await fetch(releasedReport.report_pdf_url)).arrayBuffer()),
  );
  t.is(releasedPdf.getCreationDate()?.getTime(), Math.floor(Date.parse(releasedReport.generated_at) / 1000) * 1000);
  t.is(
    (await db()<{ id: string }[]>`select id from releases where review_id = ${held.review_id}`)[0]?.id,
    waiting!.releaseId,
  );
  // Released, its run completes: approving again reaches no run, an error the operator sees.
  await gated.result();
  await t.throwsAsync(gated.executeUpdate(approveUpdate), {
    instanceOf: WorkflowNotFoundError,
    message: /already completed/,
  });

  // An operator holds the next release of a review in an auto-releasing organization.
  const org = await newOrganization();
  const review = await create(org, [{ name: 'paystub.pdf', data: await docs.payStub() }]);
  await waitForInternalState(review.review_id, 'awaiting_documents');
  const handle = client.workflow.getHandle(review.review_id);
  // Approving with nothing waiting and no hold is refused where the operator sees it.
  t.is(
    await operatorRefusal(handle.executeUpdate(approveUpdate)),
    'Nothing waits at the release gate (the review is awaiting_documents) and no hold is asked for.',
  );
  t.is(await handle.executeUpdate(holdUpdate), 'Held: the next release will wait at the release gate until approved.');
  t.regex(await operatorRefusal(handle.executeUpdate(holdUpdate)), /^A hold is already asked for/);
  await api('POST', `/reviews/${review.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'cd.pdf', data: await docs.cd() }]),
  });
  await waitForInternalState(review.review_id, 'release_gate');
  t.like((await workflowState(review.review_id)).gate, { reason: 'an operator asked to hold it' });
  t.regex(await handle.executeUpdate(approveUpdate), /^Approved: release /);
  await waitForReview(org.liveKey, review.review_id, completed);
  t.deepEqual((await transitions(review.review_id)).slice(-3), ['rendering', 'release_gate', 'released']);
  t.is((await workflowState(review.review_id)).gate, null);
});

test("an operator holds a released review's next release after its run completed: npm run admin -- review hold", async (t) => {
  const org = await newOrganization();
  const created = await create(org, [{ name: 'cd.pdf', data: await docs.cd() }]);
  await waitForReview(org.liveKey, created.review_id, completed);
  const client = await temporalClient();
  await client.workflow.getHandle(created.review_id).result();
  const firstRun = (await client.workflow.getHandle(created.review_id).describe()).runId;

  t.deepEqual(await admin('review', 'hold', created.review_id), {
    review_id: created.review_id,
    answer: 'Held: the next release will wait at the release gate until approved.',
  });
  // The hold starts a run that continues the review, and the run keeps it: it stays open with nothing else to do.
  await new Promise((r) => setTimeout(r, 1_500));
  const holding = await client.workflow.getHandle(created.review_id).describe();
  t.not(holding.runId, firstRun);
  t.is(holding.status.name, 'RUNNING');
  t.like(await workflowState(created.review_id), { holdRequested: true, internalState: 'released', releases: 1 });
  const again = await runAdmin(['review', 'hold', created.review_id]);
  t.is(again.code, 1);
  t.regex(again.stderr, /A hold is already asked for/);
  t.is((await runAdmin(['review', 'hold', randomUUID()])).code, 2, 'no such review');

  // The integrator's next documents are analysed, and the amendment waits for the operator.
  const added = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'note.pdf', data: await docs.note() }]),
  });
  t.is(added.status, 200, added.text);
  await waitForInternalState(created.review_id, 'release_gate');
  t.like((await workflowState(created.review_id)).gate, { reason: 'an operator asked to hold it' });
  t.regex(await client.workflow.getHandle(created.review_id).executeUpdate(approveUpdate), /^Approved: release /);
  await waitForReview(org.liveKey, created.review_id, completed);
  t.like(await client.workflow.getHandle(created.review_id).result(), { releases: 2, holdRequested: false });
  t.deepEqual((await transitions(created.review_id)).slice(-5), [
    'released',
    'amending',
    'rendering',
    'release_gate',
    'released',
  ]);
});

test('every query, signal and update of the review workflow has a description operators see', async (t) => {
  const org = await newOrganization();
  const created = await create(org, [{ name: 'cd.pdf', data: await docs.cd() }]);
  await waitForReview(org.liveKey, created.review_id, completed);
  const { definition } = await workflowMetadata(created.review_id);
  const handlers = [
    ...definition.queryDefinitions,
    ...definition.signalDefinitions,
    ...definition.updateDefinitions,
  ].filter((d) => !d.name.startsWith('__'));
  t.deepEqual(handlers.map((d) => d.name).sort(), [
    'addDocuments',
    'approve',
    'capacityFreed',
    'createReview',
    'deleteReview',
    'getState',
    'hold',
  ]);
  for (const d of handlers) t.true(d.description.length > 20, d.name);
});

test('a report that cannot be stored: publication_blocked (processing), retried, released only with its PDF', async (t) => {
  // A worker of its own whose MinIO traffic passes a proxy that refuses to store reports.
  const proxy = await FaultyProxy.start(config.minio.endpoint);
  proxy.refuse = (req) => req.method === 'PUT' && (req.url ?? '').includes('/reports/');
  const queue = { TEMPORAL_TASK_QUEUE: `blocked-${randomUUID()}` };
  await services.worker({ ...queue, S3_ENDPOINT: proxy.url });
  const own = await services.api(queue);
  const org = await newOrganization();
  const created = ReviewSchema.parse(
    (
      await call(own.url, 'POST', '/reviews', {
        key: org.liveKey,
        form: form([{ name: 'cd.pdf', data: await docs.cd() }]),
      })
    ).body,
  );

  await waitForInternalState(created.review_id, 'publication_blocked');
  t.like(ReviewSchema.parse((await api('GET', `/reviews/${created.review_id}`, { key: org.liveKey })).body), {
    status: 'processing',
    report_available: false,
  });
  t.regex((await workflowState(created.review_id)).detail ?? '', /could not be rendered or stored/);
  t.true(proxy.refused >= 3, 'the render activity tried, and was retried');
  t.is(
    (await db()`select count(*)::int as n from releases where review_id = ${created.review_id}`)[0]!.n,
    0,
    'nothing released without its PDF',
  );

  proxy.refuse = () => false;
  await waitForReview(org.liveKey, created.review_id, completed, 60_000);
  const r = await report(org, created.review_id);
  t.is((await fetch(r.report_pdf_url)).status, 200);
  t.deepEqual((await transitions(created.review_id)).slice(-3), ['rendering', 'publication_blocked', 'released']);
  await proxy.close();
});

test('the working document answers findings: cleared leaves the next release, disputed is marked and gated, cure re-checked', async (t) => {
  const org = await newOrganization();
  const created = await create(org, [
    { name: 'cd.pdf', data: await docs.cd() },
    { name: 'note.pdf', data: await docs.note() },
  ]);
  await waitForReview(org.liveKey, created.review_id, completed);
  const first = await report(org, created.review_id);
  const blank = Buffer.from(await (await fetch(first.report_pdf_url)).arrayBuffer());
  const filled = await fillWorkingDocument(blank, {
    'DOC-002': { decision: 'cleared', comment: 'Appraisal waived (PIW).' },
    'DOC-001:urla': { decision: 'disputed', comment: 'The URLA is in the lender file' },
    'DOC-001:loan_estimate': { decision: 'cure_attached', cureDocument: 'le.pdf' },
    'DOC-001:security_instrument': { decision: 'approve' },
  });

  const res = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([
      { name: 'answers.pdf', data: filled },
      { name: 'le.pdf', data: await docs.le() },
    ]),
  });
  t.is(res.status, 200, res.text);
  const result = AddDocumentsResultSchema.parse(res.body);
  t.like(result, {
    status: 'processing',
    documents_ingested: 1,
    dispositions_applied: 3,
    dispositions_failed: 1,
    dispositions_skipped: 0,
  });
  // Three decisions on DOC-001 findings, each told apart by the finding's id.
  t.deepEqual(result.dispositions.map((d) => [d.finding, d.finding_id, d.decision, d.outcome]).sort(), [
    ['DOC-001', 'DOC-001:loan_estimate', 'cure_attached', 'applied'],
    ['DOC-001', 'DOC-001:security_instrument', 'unrecognised', 'failed'],
    ['DOC-001', 'DOC-001:urla', 'disputed', 'applied'],
    ['DOC-002', 'DOC-002', 'cleared', 'applied'],
  ]);
  t.true(result.dispositions.every((d) => d.detail.length > 0));

  // A disputed finding routes the amendment through the release gate, where the operator sees the
  // dispute, the lender's comment and who sent it before approving.
  await waitForInternalState(created.review_id, 'release_gate');
  const atGate = await workflowState(created.review_id);
  t.like(atGate.gate, { reason: '1 disputed finding(s)' });
  t.deepEqual(
    atGate.disputes.map((d) => [d.findingId, d.code, d.comment]),
    [['DOC-001:urla', 'DOC-001', 'The URLA is in the lender file']],
  );
  t.regex(atGate.disputes[0]!.sentBy ?? '', /^API key rk_live_\w+, request [0-9a-f-]{36}$/);
  const { currentDetails } = await workflowMetadata(created.review_id);
  t.regex(currentDetails, /\*\*Waiting at the release gate:\*\* release `[0-9a-f-]{36}` \(1 disputed finding\(s\)\)/);
  t.regex(
    currentDetails,
    /\*\*Disputed by the lender\*\* \(1\):\n- `DOC-001:urla` Core document missing: “The URLA is in the lender file” \(API key rk_live_\w+, request /,
  );
  await (await temporalClient()).workflow.getHandle(created.review_id).executeUpdate(approveUpdate);
  await waitForReview(org.liveKey, created.review_id, completed);
  const amended = await report(org, created.review_id);
  t.deepEqual(codes(amended), ['DOC-001', 'DOC-001', 'DOC-004', 'APR-006'], 'DOC-002 cleared, the Loan Estimate cured');
  // A finding keeps its id from one release to the next.
  t.deepEqual(
    amended.issues.map((i) => i.id),
    ['DOC-001:security_instrument', 'DOC-001:urla', 'DOC-004', 'APR-006'],
  );
  t.regex(
    amended.issues.find((i) => /loan application/.test(i.summary))!.summary,
    /Disputed by the lender: The URLA is in the lender file\.$/,
  );

  // The same decisions again on the amended report's working document: already so, skipped.
  const again = await fillWorkingDocument(Buffer.from(await (await fetch(amended.report_pdf_url)).arrayBuffer()), {
    'DOC-001:urla': { decision: 'disputed' },
  });
  const res2 = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'answers-2.pdf', data: again }]),
  });
  t.is(res2.status, 200, res2.text);
  t.like(AddDocumentsResultSchema.parse(res2.body), {
    documents_ingested: 0,
    dispositions_applied: 0,
    dispositions_skipped: 1,
    status: 'completed',
  });
});

test('documents added while a release waits at the gate are analysed before anything is released', async (t) => {
  const org = await newOrganization({ releasePolicy: 'hold' });
  const created = await create(org, [{ name: 'cd.pdf', data: await docs.cd() }]);
  await waitForInternalState(created.review_id, 'release_gate');
  const added = await api('POST', `/reviews/${created.review_id}/documents`, {
    key: org.liveKey,
    form: form([{ name: 'note.pdf', data: await docs.note() }]),
  });
  t.like(AddDocumentsResultSchema.parse(added.body), { status: 'processing', documents_ingested: 1 });
  // Back at the gate (a second time) with an analysis that saw both documents.
  for (let i = 0; (await transitions(created.review_id)).filter((s) => s === 'release_gate').length < 2; i++) {
    if (i > 300) throw new Error('the review never came back to the gate');
    await new Promise((r) => setTimeout(r, 100));
  }
  t.like((await workflowState(created.review_id)).lastAnalysis, { documents: 2 });
  t.deepEqual(await transitions(created.review_id), [
    'ingesting',
    'analysing',
    'rendering',
    'release_gate',
    'analysing',
    'rendering',
    'release_gate',
  ]);
  await (await temporalClient()).workflow.getHandle(created.review_id).executeUpdate(approveUpdate);
  await waitForReview(org.liveKey, created.review_id, completed);
  t.false(codes(await report(org, created.review_id)).includes('DOC-009'));
  t.is(
    (await db()`select count(*)::int as n from releases where review_id = ${created.review_id}`)[0]!.n,
    1,
    'one release, not one per analysis',
  );
});
