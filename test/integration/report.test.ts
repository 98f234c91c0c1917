// GET /v1/reviews/{id}/report follows the state table of the specification. The pipeline that releases
// reports is later work, so these tests put reviews and releases in the read model directly.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { insertReview } from '../../src/db/reviews.js';
import type { Finding } from '../../src/qc/finding.js';
import type { ReviewStatus } from '../../src/reviews/review.js';
import { ReportSchema } from '../../src/reviews/report.js';
import { createStorage } from '../../src/storage/minio.js';
import { call, errorCode } from '../support/http.js';
import { closeShared, config, db, newOrganization, stack } from '../support/stack.js';

test.after.always(closeShared);

const storage = createStorage(config);
const pdf = Buffer.from('%PDF-1.7\n% a stand-in render\n%%EOF\n');
const findings: Finding[] = [
  {
    key: 'APR-001',
    code: 'APR-001',
    severity: 'critical',
    category: 'compliance',
    title: 'APR outside tolerance',
    summary: 'Closing Disclosure (cd.pdf, p.5) discloses APR 4.274%; recomputed APR is 4.512%.',
    evidence: [{ document: 'cd.pdf', page: 5, field: 'apr', value: '4.274%' }],
    regulation: '12 CFR 1026.22(a)(2)',
  },
  {
    key: 'DOC-001:urla',
    code: 'DOC-001',
    severity: 'critical',
    category: 'documentation',
    title: 'Core document missing',
    summary: 'No loan application (URLA) was found among the 3 document(s) of the package.',
    evidence: [],
    regulation: null,
  },
];
/** What the Report shows of them. */
const issues = findings.map(({ key, ...f }) => ({ id: key, ...f }));
const summary = { total: 2, critical: 2, high: 0, medium: 0, low: 0, info: 0 };

async function review(
  organizationId: string,
  status: ReviewStatus,
  opts: { release?: 'stored' | 'missing'; sandbox?: boolean } = {},
) {
  const id = randomUUID();
  await insertReview(db(), {
    id,
    organizationId,
    sandbox: opts.sandbox ?? false,
    status,
    internalState: status === 'completed' ? 'released' : 'analysing',
    reviewType: 'mortgage_v1',
    label: null,
    referenceId: null,
    metadata: null,
    createdAt: new Date(),
  });
  if (opts.release) {
    const key = `reports/${id}/1.pdf`;
    await db()`insert into releases (id, review_id, sequence, outcome, summary, issues, findings,
      report_object_key, generated_at)
               values (${randomUUID()}, ${id}, 1, 'issues_found', ${db().json(summary)},
               ${db().json(issues)}, ${db().json(findings)}, ${key}, now())`;
    if (opts.release === 'stored')
      await storage.client.putObject(storage.bucket, key, pdf, pdf.length, { 'Content-Type': 'application/pdf' });
  }
  return id;
}

const report = (key: string, id: string) => call(stack.apiUrl, 'GET', `/reviews/${id}/report`, { key });

test('completed: 200 with the report and a download URL valid for 5 minutes', async (t) => {
  const org = await newOrganization();
  const id = await review(org.id, 'completed', { release: 'stored' });
  const before = Date.now();
  const res = await report(org.liveKey, id);
  t.is(res.status, 200);
  const body = ReportSchema.parse(res.body);
  t.like(body, { review_id: id, status: 'completed', outcome: 'issues_found', sandbox: false });
  t.deepEqual(body.summary, summary);
  t.deepEqual(body.issues, issues);
  const expires = Date.parse(body.report_pdf_expires_at);
  t.true(
    expires >= Math.floor(before / 1000) * 1000 + 299_000 && expires <= Date.now() + 300_000,
    body.report_pdf_expires_at,
  );
  t.regex(body.report_pdf_url, /X-Amz-Expires=300/);
  const download = await fetch(body.report_pdf_url);
  t.is(download.status, 200);
  t.deepEqual(Buffer.from(await download.arrayBuffer()), pdf);
});

test('queued, processing and awaiting_documents: 404 report_not_ready', async (t) => {
  const org = await newOrganization();
  for (const status of ['queued', 'processing', 'awaiting_documents'] as const) {
    const res = await report(org.liveKey, await review(org.id, status));
    t.is(res.status, 404, status);
    t.is(errorCode(res), 'report_not_ready', status);
  }
});

test('completed but the render is missing: 409 report_not_ready, nothing substituted', async (t) => {
  const org = await newOrganization();
  for (const release of ['missing', undefined] as const) {
    const res = await report(org.liveKey, await review(org.id, 'completed', release ? { release } : {}));
    t.is(res.status, 409);
    t.is(errorCode(res), 'report_not_ready');
  }
});

test('failed: 422 review_failed', async (t) => {
  const org = await newOrganization();
  const res = await report(org.liveKey, await review(org.id, 'failed'));
  t.is(res.status, 422);
  t.is(errorCode(res), 'review_failed');
});

test("unknown or another organization's review: 404 review_not_found; malformed id: 422 detail", async (t) => {
  const org = await newOrganization();
  const other = await newOrganization();
  const foreign = await review(other.id, 'completed', { release: 'stored' });
  for (const id of [foreign, randomUUID()]) {
    const res = await report(org.liveKey, id);
    t.is(res.status, 404);
    t.is(errorCode(res), 'review_not_found');
  }
  const bad = await report(org.liveKey, 'nope');
  t.is(bad.status, 422);
  t.deepEqual((bad.body as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['path', 'review_id']);
});

test('a sandbox review’s report says sandbox: true', async (t) => {
  const org = await newOrganization();
  const res = await report(org.sandboxKey, await review(org.id, 'completed', { release: 'stored', sandbox: true }));
  t.is(res.status, 200);
  t.true(ReportSchema.parse(res.body).sandbox);
});

test(
  'a release published before findings were stored (issues only) shows its issues with their code ' +
    "as id, no evidence and their rule's regulation, once migration 7 has run",
  async (t) => {
    const org = await newOrganization();
    const id = await review(org.id, 'completed', { release: 'stored' });
    const early = [
      {
        code: 'DOC-005',
        severity: 'high',
        category: 'documentation',
        title: 'Signature missing',
        summary: 'The Note is unsigned.',
      },
      {
        code: 'APR-001',
        severity: 'critical',
        category: 'compliance',
        title: 'APR outside tolerance',
        summary: 'CD APR 4.274%.',
      },
      {
        code: 'DOC-005',
        severity: 'high',
        category: 'documentation',
        title: 'Signature missing',
        summary: 'The Deed of Trust is unsigned.',
      },
    ];
    await db()`update releases set issues = ${db().json(early)}, findings = '[]'::jsonb where review_id = ${id}`;
    await db().unsafe(
      readFileSync(
        new URL('../../src/db/migrations/00007_findings_of_early_releases/index.sql', import.meta.url),
        'utf8',
      ),
    );
    const body = ReportSchema.parse((await report(org.liveKey, id)).body);
    t.deepEqual(
      body.issues.map((i) => [i.id, i.code, i.summary, i.evidence, i.regulation]),
      [
        ['DOC-005', 'DOC-005', 'The Note is unsigned.', [], null],
        ['APR-001', 'APR-001', 'CD APR 4.274%.', [], '12 CFR 1026.22(a)(2)'],
        ['DOC-005~2', 'DOC-005', 'The Deed of Trust is unsigned.', [], null],
      ],
    );
  },
);
