// The report PDF as a QC reviewer reads it: page 1 (the loan at a glance, the outcome, counts by
// severity, the documents reviewed, what changed, how to answer), the findings table, a section per
// finding, footers, and one fillable form that starts with the decisions already taken.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type { Finding } from '../../../src/qc/finding.js';
import { renderReport, type ReportContent } from '../../../src/report/render.js';
import type { Particulars } from '../../../src/report/particulars.js';
import { releaseContent } from '../../../src/reviews/report.js';
import { inspectWorkingDocument, readWorkingDocumentFields } from '../../../src/working-document/marker.js';
import { pagesText } from '../../support/pdf-text.js';

const secret = 'a-server-secret-of-at-least-32-characters';

const finding = (key: string, o: Partial<Finding> = {}): Finding => ({
  key,
  code: key.split(':')[0]!,
  severity: 'high',
  category: 'documentation',
  title: `Title of ${key}`,
  summary: `Summary of ${key}.`,
  evidence: [],
  regulation: null,
  ...o,
});

const apr = finding('APR-001', {
  severity: 'critical',
  category: 'compliance',
  title: 'APR outside tolerance',
  summary: 'The APR disclosed on the Closing Disclosure (cd.pdf, p.5), 4.174%, differs from the Loan Estimate (le.pdf, p.3), 3.990%.',
  evidence: [
    { document: 'cd.pdf', page: 5, field: 'apr', value: '4.174%' },
    { document: 'le.pdf', page: 3, field: 'apr', value: '3.990%' },
  ],
  regulation: '12 CFR 1026.22(a)(2)',
});
const urla = finding('DOC-001:urla', { severity: 'critical', title: 'Core document missing', summary: 'No loan application (URLA) was found.' });
const bank = finding('DOC-004', { severity: 'medium', title: 'Bank statements incomplete', evidence: [{ document: 'bank.pdf', page: 2, field: 'statement_period', value: null }] });

const particulars: Particulars = {
  glance: [
    { label: 'Borrower', value: 'Michael Jones and Mary Stone', document: 'cd.pdf', page: 1 },
    { label: 'Loan amount', value: '$162,000.00', document: 'cd.pdf', page: 1 },
    { label: 'Interest rate', value: '3.875%', document: 'note.pdf', page: 1 },
    { label: 'Closing date', value: '15 April 2013', document: 'cd.pdf', page: 1 },
  ],
  documents: [
    { file: 'cd.pdf', found: ['Closing Disclosure'], pages: 5, unreadable: null },
    { file: 'package.pdf', found: ['Note', 'Pay stub'], pages: 7, unreadable: null },
    { file: 'photo.jpg', found: [], pages: 0, unreadable: 'the image could not be decoded' },
  ],
};

function content(o: Partial<ReportContent> = {}): ReportContent {
  const findings = o.findings ?? [apr, urla, bank];
  return {
    reviewId: randomUUID(),
    releaseId: randomUUID(),
    referenceId: 'LN-2026-000123',
    sandbox: false,
    ...releaseContent(findings),
    generatedAt: new Date('2026-11-23T08:00:41.318Z'),
    sheet: { number: 1, particulars, previous: null, decisions: [], standing: [] },
    ...o,
  };
}

test('page 1: the loan at a glance with sources, the outcome in words, counts by severity, the documents reviewed, the release in words', async (t) => {
  const [first] = await pagesText(await renderReport(content(), secret));
  t.regex(first!, /Loan package quality-control report/);
  t.regex(first!, /Release 1, 23 November 2026, 08:00 UTC\n/);
  t.notRegex(first!, /amends/);
  t.regex(first!, /Issues found: 3 findings to review, 2 critical or high findings among them\./);
  t.regex(first!, /2 critical 0 high 1 medium 0 low 0 info/);
  t.regex(first!, /Borrower Michael Jones and Mary Stone cd\.pdf, p\.1/);
  t.regex(first!, /Loan amount \$162,000\.00 cd\.pdf, p\.1/);
  t.regex(first!, /Interest rate 3\.875% note\.pdf, p\.1/);
  // A fact no document printed is said to be missing, not left out.
  t.regex(first!, /Property not found in the package/);
  t.regex(first!, /Lender not found in the package/);
  t.regex(first!, /package\.pdf Note, Pay stub 7/);
  t.regex(first!, /photo\.jpg - - Unreadable: the image\s+could not be decoded/);
  t.regex(first!, /How to answer/);
  // For people: no API paths, no ISO timestamps.
  for (const page of await pagesText(await renderReport(content(), secret))) {
    t.notRegex(page, /\/reviews|\/v1|POST /);
    t.notRegex(page, /\d{4}-\d{2}-\d{2}T/);
  }
});

test('a clear review says so; a release from before particulars were recorded says they were not', async (t) => {
  const [first] = await pagesText(await renderReport(content({ findings: [], sheet: { number: 1, particulars: null, previous: null, decisions: [], standing: [] } }), secret));
  t.regex(first!, /Clear: the review found no issues in this package\./);
  t.regex(first!, /0 critical 0 high 0 medium 0 low 0 info/);
  t.regex(first!, /The loan at a glance\nNot recorded for this release\./);
  t.regex(first!, /No issues were found\./);
});

test('the findings table, then one section per finding with its summary, regulation and evidence', async (t) => {
  const pages = await pagesText(await renderReport(content(), secret));
  const rest = pages.slice(1).join('\n');
  t.regex(rest, /Findings\nFinding Severity Title Document, page\nAPR-001 Critical APR outside tolerance cd\.pdf, p\.5\nDOC-001:urla Critical Core document missing -\nDOC-004 Medium Bank statements incomplete bank\.pdf, p\.2/);
  t.regex(rest, /APR-001 APR outside tolerance\nCritical severity, compliance\nThe APR disclosed on the Closing Disclosure \(cd\.pdf, p\.5\), 4\.174%/);
  t.regex(rest, /Regulation: 12 CFR 1026\.22\(a\)\(2\)/);
  t.regex(rest, /Evidence\nAPR: 4\.174% \(cd\.pdf, p\.5\)\nAPR: 3\.990% \(le\.pdf, p\.3\)/);
  t.regex(rest, /Statement period: blank or not printed \(bank\.pdf, p\.2\)/);
  t.regex(rest, /DOC-001:urla Core document missing\nCritical severity, documentation\nNo loan application \(URLA\) was found\./);
});

test('every page has a footer: the review, the release and page x of y', async (t) => {
  const c = content({ findings: Array.from({ length: 30 }, (_, i) => finding(`DOC-0${10 + (i % 80)}:${i}`)) });
  const pages = await pagesText(await renderReport(c, secret));
  t.true(pages.length > 3);
  pages.forEach((text, i) => {
    t.regex(text, new RegExp(`Review ${c.reviewId} · release 1, 23 November 2026, 08:00 UTC`));
    t.regex(text, new RegExp(`Page ${i + 1} of ${pages.length}`));
  });
});

test('an amendment says what it amends and what changed: cleared, disputed with the comment, cured, resolved, new', async (t) => {
  const cleared = finding('DOC-002', { title: 'Appraisal missing' });
  const cured = finding('TOL-001', { title: 'Tolerance exceeded' });
  const gone = finding('NTE-001', { title: 'Note rate differs' });
  const fresh = finding('TRD-002', { severity: 'critical', title: 'Closing Disclosure waiting period' });
  const c = content({
    findings: [apr, urla, fresh],
    sheet: {
      number: 2,
      particulars,
      previous: { number: 1, generatedAt: new Date('2026-11-20T14:05:00Z'), findings: [apr, urla, cleared, cured, gone] },
      decisions: [
        { findingId: 'DOC-002', decision: 'cleared', comment: 'Appraisal waived (PIW).' },
        { findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' },
        { findingId: 'TOL-001', decision: 'cure_attached', comment: null },
      ],
      standing: [{ findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' }],
    },
  });
  const [first] = await pagesText(await renderReport(c, secret));
  t.regex(first!, /Release 2, 23 November 2026, 08:00 UTC — amends release 1 of 20 November 2026, 14:05 UTC/);
  t.regex(first!, /Changes since release 1/);
  t.regex(first!, /Disputed DOC-001:urla Core document missing "The URLA is in the lender file"/);
  t.regex(first!, /Cleared DOC-002 Appraisal missing "Appraisal waived \(PIW\)\."/);
  t.regex(first!, /Cured TOL-001 Tolerance exceeded the cure document resolved it/);
  t.regex(first!, /Resolved NTE-001 Note rate differs no longer found in the documents/);
  t.regex(first!, /New TRD-002 Closing Disclosure waiting period Critical/);
  t.notRegex(first!, /APR-001/, 'unchanged findings are not listed');
});

test('one fillable form: three fields per finding, earlier decisions pre-filled, the service marker intact', async (t) => {
  const c = content({
    sheet: {
      number: 2,
      particulars,
      previous: { number: 1, generatedAt: new Date('2026-11-20T14:05:00Z'), findings: [apr, urla, bank] },
      decisions: [],
      standing: [{ findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' }],
    },
  });
  const bytes = await renderReport(c, secret);
  t.deepEqual(await inspectWorkingDocument(bytes, secret), { reviewId: c.reviewId, releaseId: c.releaseId, fieldCount: 9 });
  const fields = await readWorkingDocumentFields(bytes);
  t.is(fields.get('finding.DOC-001:urla.decision'), 'disputed');
  t.is(fields.get('finding.DOC-001:urla.comment'), 'The URLA is in the lender file');
  t.is(fields.get('finding.APR-001.decision') ?? '', '');
  t.true(fields.has('finding.DOC-004.cure_document'));
  t.regex((await pagesText(bytes)).join('\n'), /Decided earlier: disputed\. Leave it to keep it, or change it\./);
});

test('the document title is set and shown by viewers, in English', async (t) => {
  const doc = await PDFDocument.load(await renderReport(content(), secret));
  t.is(doc.getTitle(), 'Loan package review LN-2026-000123, release 1');
  const prefs = doc.catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict);
  t.is(String(prefs.get(PDFName.of('DisplayDocTitle'))), 'true');
  t.is(String(doc.catalog.get(PDFName.of('Lang'))), '(en-US)');
  t.is(doc.getCreationDate()?.toISOString(), '2026-11-23T08:00:41.000Z');
});

test('the text is set in embedded fonts, so names beyond Latin-1 print as written; the form keeps a font viewers type in', async (t) => {
  const names: Particulars = { ...particulars, glance: [{ label: 'Borrower', value: 'Zoë Łukasiewicz and Đặng Thị Hoa', document: 'cd.pdf', page: 1 }] };
  const bytes = await renderReport(content({ sheet: { number: 1, particulars: names, previous: null, decisions: [], standing: [] } }), secret);
  t.regex((await pagesText(bytes))[0]!, /Borrower Zoë Łukasiewicz and Đặng Thị Hoa cd\.pdf, p\.1/);
  const doc = await PDFDocument.load(bytes);
  const fonts = doc.context
    .enumerateIndirectObjects()
    .map(([, o]) => o)
    .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'));
  // Every font the pages use carries its program (FontFile2): a subset of DejaVu Sans, regular and bold (pdf-lib numbers a subset's name).
  t.deepEqual(fonts.map((f) => String(f.get(PDFName.of('FontName'))).replace(/^\/[A-Z]{6}\+/, '/').replace(/-\d+$/, '')).sort(), ['/DejaVuSans', '/DejaVuSans-Bold']);
  t.true(fonts.every((f) => f.get(PDFName.of('FontFile2')) !== undefined));
  t.is(String(doc.getForm().getTextField(`finding.${apr.key}.comment`).acroField.getDefaultAppearance()).includes('Helv'), true);
});
