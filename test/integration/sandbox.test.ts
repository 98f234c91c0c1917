// Sandbox keys (interface "Sandbox behaviour", RULES.md "Sandbox canned report"): the upload path is the
// real one, refusals included, and the review comes back completed with the canned report released: a
// real PDF that is the review's working document.
import test from 'ava';
import { inspectWorkingDocument } from '../../src/working-document/marker.js';
import { ReportSchema } from '../../src/reviews/report.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { InternalStateKey, ReviewStatusKey } from '../../src/temporal/search-attribute-keys.js';
import { assertStatus, call, createBody, errorCode, form } from '../support/http.js';
import { leftUnder, storedDocuments } from '../support/objects.js';
import { closeShared, config, db, newOrganization, stack } from '../support/stack.js';
import { describedAt } from '../support/reviews.js';
import { elf, pdf, png } from '../support/fixtures.js';

test.after.always(closeShared);

test('a sandbox create ingests the uploads and answers completed, with the canned report released', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    form: form(
      [
        { name: 'cd.pdf', data: await pdf('sandbox CD') },
        { name: 'id.png', data: png },
      ],
      { reference_id: 'SBX-1' },
    ),
  });
  t.is(res.status, 201, res.text);
  const review = ReviewSchema.parse(res.body);
  t.like(review, {
    status: 'completed',
    report_available: true,
    sandbox: true,
    document_count: 2,
    reference_id: 'SBX-1',
  });
  t.is((await storedDocuments(review.review_id)).length, 2, 'the documents were really stored');

  const got = await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}`, { key: org.sandboxKey });
  t.like(got.body, { status: 'completed', report_available: true });

  const reportRes = await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}/report`, { key: org.sandboxKey });
  t.is(reportRes.status, 200, reportRes.text);
  const report = ReportSchema.parse(reportRes.body);
  t.like(report, {
    sandbox: true,
    status: 'completed',
    outcome: 'issues_found',
    summary: { total: 5, critical: 1, high: 1, medium: 1, low: 1, info: 1 },
  });
  t.deepEqual(
    report.issues.map((i) => [i.code, i.severity]),
    [
      ['SAMPLE-001', 'critical'],
      ['SAMPLE-002', 'high'],
      ['SAMPLE-003', 'medium'],
      ['SAMPLE-004', 'low'],
      ['SAMPLE-005', 'info'],
    ],
  );
  for (const issue of report.issues) {
    t.true(['compliance', 'documentation'].includes(issue.category));
    t.regex(issue.summary, /^Sample data: .*does not describe the documents you uploaded\.$/);
  }

  const pdfRes = await fetch(report.report_pdf_url);
  t.is(pdfRes.status, 200);
  const bytes = Buffer.from(await pdfRes.arrayBuffer());
  t.is(bytes.subarray(0, 5).toString(), '%PDF-');
  const release = (await db()`select id from releases where review_id = ${review.review_id}`)[0]!;
  // The PDF is the working document of this release: three fields per finding.
  t.deepEqual(await inspectWorkingDocument(bytes, config.secrets.server), {
    reviewId: review.review_id,
    releaseId: release.id,
    fieldCount: 15,
  });

  const described = await describedAt(review.review_id, 'released');
  t.deepEqual(described.typedSearchAttributes.get(ReviewStatusKey), 'completed');
  t.deepEqual(described.typedSearchAttributes.get(InternalStateKey), 'released');
});

test('a sandbox create from signed URLs completes the same way', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', { key: org.sandboxKey, json: createBody() });
  t.is(res.status, 201, res.text);
  t.like(res.body, { status: 'completed', report_available: true, sandbox: true, document_count: 1 });
});

test('a sandbox create is refused like a live one, and keeps nothing', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    form: form([{ name: 'setup.pdf', data: elf }]),
  });
  t.is(res.status, 400, res.text);
  t.is(errorCode(res), 'document_unsupported');
  t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
  t.deepEqual(await leftUnder(`uploads/${org.id}/`), []);
});

test('the sandbox working document goes back to its review; the review stays completed', async (t) => {
  const org = await newOrganization();
  const review = ReviewSchema.parse(
    (await call(stack.apiUrl, 'POST', '/reviews', { key: org.sandboxKey, form: form([{ name: 'id.png', data: png }]) }))
      .body,
  );
  const report = ReportSchema.parse(
    (await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}/report`, { key: org.sandboxKey })).body,
  );
  const working = Buffer.from(await (await fetch(report.report_pdf_url)).arrayBuffer());
  const res = await call(stack.apiUrl, 'POST', `/reviews/${review.review_id}/documents`, {
    key: org.sandboxKey,
    form: form([
      { name: 'renamed-report.pdf', data: working },
      { name: 'cure.pdf', data: await pdf('cure') },
    ]),
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, { status: 'completed', documents_ingested: 1 });
  const after = ReviewSchema.parse(
    (await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}`, { key: org.sandboxKey })).body,
  );
  t.like(after, { status: 'completed', report_available: true, document_count: 2 });
});

test(
  "a key reads reports of and adds documents to its own mode's reviews only; the other mode's " +
    'answer review_not_found',
  async (t) => {
    const org = await newOrganization();
    const sandbox = ReviewSchema.parse(
      (
        await call(stack.apiUrl, 'POST', '/reviews', {
          key: org.sandboxKey,
          form: form([{ name: 'id.png', data: png }]),
        })
      ).body,
    );
    const live = ReviewSchema.parse(
      (await call(stack.apiUrl, 'POST', '/reviews', { key: org.liveKey, json: createBody() })).body,
    );
    for (const [review, otherKey, mode] of [
      [sandbox, org.liveKey, 'live key on a sandbox review'],
      [live, org.sandboxKey, 'sandbox key on a live review'],
    ] as const) {
      const report = await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}/report`, { key: otherKey });
      t.is(report.status, 404, mode);
      t.is(errorCode(report), 'review_not_found', mode);
      const add = await call(stack.apiUrl, 'POST', `/reviews/${review.review_id}/documents`, {
        key: otherKey,
        form: form([{ name: 'more.png', data: png }]),
      });
      t.is(add.status, 404, mode);
      t.is(errorCode(add), 'review_not_found', mode);
      // Showing and listing stay as the interface says: both modes, each review marked with its own.
      const shown = await call(stack.apiUrl, 'GET', `/reviews/${review.review_id}`, { key: otherKey });
      t.is(shown.status, 200, mode);
      t.is((shown.body as { sandbox: boolean }).sandbox, review.sandbox, mode);
    }
    const listed = await call(stack.apiUrl, 'GET', '/reviews', { key: org.sandboxKey });
    t.deepEqual(
      (listed.body as { data: { review_id: string }[] }).data.map((r) => r.review_id).sort(),
      [sandbox.review_id, live.review_id].sort(),
    );
    // Nothing was added to either.
    t.is(
      (
        await db()`select count(*)::int as n from documents where filename = 'more.png' and review_id in
          ${db()([sandbox.review_id, live.review_id])}`
      )[0]!.n,
      0,
    );
    assertStatus(
      t,
      await call(stack.apiUrl, 'GET', `/reviews/${sandbox.review_id}/report`, { key: org.sandboxKey }),
      200,
    );
  },
);
