// The engine over a whole package: files read several at a time, reported in upload order, every rule
// run over the loan file they make together.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { analyseDocuments, OUT_OF_TIME, type DocumentToAnalyse } from '../../../src/qc/analyse.js';
import { tesseractOcr } from '../../../src/qc/reading/document.js';
import { terminateOcr } from '../../../src/qc/reading/ocr.js';
import { DEFAULT_RULE_CONTEXT } from '../../../src/qc/catalog.js';
import { runRules } from '../../../src/qc/rules/registry.js';
import { at, doc, loanFile } from '../../support/loan-file.js';
import { corruptPdf, pdf } from '../../support/fixtures.js';
import { drawScan } from '../../support/scan-image.js';
import { recordingLogger } from '../../support/recording-logger.js';

const corpus = new URL('../../corpus/cfpb/', import.meta.url);

test.after.always(() => terminateOcr());

/** The PDFs of `bytes` as a review's documents, in its order, each stored under its name. */
const pdfsToAnalyse = (bytes: Map<string, Uint8Array>): DocumentToAnalyse[] =>
  [...bytes.keys()].map((name, i) => ({ id: String(i), filename: name, mime: 'application/pdf', objectKey: name }));

test('files read three at a time come back in upload order, an unreadable one listed, each counted once', async (t) => {
  const bytes = new Map<string, Uint8Array>([
    ['cd.pdf', readFileSync(new URL('cd_sample_fixed_rate_h25b.pdf', corpus))],
    ['broken.pdf', corruptPdf],
    ['note.pdf', await pdf('NOTE')],
    ['le.pdf', readFileSync(new URL('le_sample_fixed_rate_h24b.pdf', corpus))],
    ['letter.pdf', await pdf('Dear borrower, thank you for your application.')],
  ]);
  const docs = pdfsToAnalyse(bytes);
  const counted: number[] = [];
  const analysis = await analyseDocuments(
    docs,
    async (key) => bytes.get(key)!,
    (n) => counted.push(n),
    { concurrency: 3 },
  );

  t.deepEqual(
    analysis.documents.map((d) => [d.filename, d.classes, d.unreadable === null]),
    [
      ['cd.pdf', ['closing_disclosure'], true],
      ['broken.pdf', [], false],
      ['note.pdf', ['note'], true],
      ['le.pdf', ['loan_estimate'], true],
      ['letter.pdf', ['other'], true],
    ],
  );
  t.deepEqual(
    analysis.loan.documents.map((d) => d.filename),
    ['cd.pdf', 'note.pdf', 'le.pdf', 'letter.pdf'],
  );
  t.deepEqual(counted, [1, 2, 3, 4, 5]);
  t.true(analysis.primaryPresent);
  t.false(analysis.nothingReadable);
  const doc009 = analysis.findings.find((f) => f.code === 'DOC-009');
  t.regex(doc009?.summary ?? '', /letter\.pdf/);
  t.regex(doc009?.summary ?? '', /broken\.pdf \(could not be read/);
});

test('an analysis stopped by its signal begins no further file and rejects with its reason once no file is under way', async (t) => {
  const bytes = new Map<string, Uint8Array>([
    ['note.pdf', await pdf('NOTE')],
    ['le.pdf', readFileSync(new URL('le_sample_fixed_rate_h24b.pdf', corpus))],
    ['cd.pdf', readFileSync(new URL('cd_sample_fixed_rate_h25b.pdf', corpus))],
    ['letter.pdf', await pdf('Dear borrower, thank you for your application.')],
  ]);
  const docs = pdfsToAnalyse(bytes);
  for (const concurrency of [1, 2]) {
    const stop = new AbortController();
    const reason = new Error('the review is being deleted');
    const fetched: string[] = [];
    const counted: number[] = [];
    // Stopped as the second file arrives from storage: it is begun, and read no further.
    const read = async (key: string) => {
      fetched.push(key);
      if (key === 'le.pdf') stop.abort(reason);
      return bytes.get(key)!;
    };
    await t.throwsAsync(
      analyseDocuments(docs, read, (n) => counted.push(n), { concurrency, signal: stop.signal }),
      { is: reason },
    );
    t.deepEqual(fetched, ['note.pdf', 'le.pdf'], `${concurrency} at a time: no file begun after the stop`);
    t.true(counted.length <= 1, `${concurrency} at a time: only the first file counted as read`);
  }
});

test('a package of which nothing can be read says so (the review fails)', async (t) => {
  const analysis = await analyseDocuments(
    [{ id: '1', filename: 'broken.pdf', mime: 'application/pdf', objectKey: 'k' }],
    async () => corruptPdf,
  );
  t.true(analysis.nothingReadable);
  t.false(analysis.primaryPresent);
});

test('a scanned page OCR cannot read keeps its low confidence: DOC-006 names the file and page', async (t) => {
  const doc = await PDFDocument.create();
  doc
    .addPage([612, 792])
    .drawText('NOTE', { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  // A second page with nothing on it but an image of nothing: no text layer, nothing to recognise.
  const blank = await doc.embedPng(
    await sharp({ create: { width: 850, height: 1100, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer(),
  );
  doc.addPage([612, 792]).drawImage(blank, { x: 0, y: 0, width: 612, height: 792 });
  const bytes = await doc.save();
  const analysis = await analyseDocuments(
    [{ id: '1', filename: 'note.pdf', mime: 'application/pdf', objectKey: 'k' }],
    async () => bytes,
    () => {},
    {
      ocr: tesseractOcr,
    },
  );
  t.deepEqual(
    analysis.loan.documents[0]?.pages.map((p) => [p.number, p.source, p.confidence]),
    [
      [1, 'text_layer', null],
      [2, 'ocr', 0],
    ],
  );
  const illegible = analysis.findings.find((f) => f.code === 'DOC-006');
  t.regex(illegible?.summary ?? '', /note\.pdf/);
  t.regex(illegible?.summary ?? '', /\b2\b/);
});

test(
  'past its deadline the analysis begins no page: a file begun is read no further, files not ' + 'begun are unreadable',
  async (t) => {
    const bytes = new Map<string, Uint8Array>([
      ['scan.png', drawScan(['PROMISSORY NOTE Loan Amount $162,000'], 400).png],
      ['note.pdf', await pdf('NOTE')],
    ]);
    const docs: DocumentToAnalyse[] = [
      { id: '1', filename: 'scan.png', mime: 'image/png', objectKey: 'scan.png' },
      { id: '2', filename: 'note.pdf', mime: 'application/pdf', objectKey: 'note.pdf' },
    ];
    const deadline = Date.now() + 1_000;
    // The scan is begun in time, but comes back from storage only after the deadline: its page is not read.
    const read = async (key: string) => {
      if (key === 'scan.png') await new Promise((r) => setTimeout(r, deadline - Date.now() + 20));
      return bytes.get(key)!;
    };
    const analysis = await analyseDocuments(docs, read, () => {}, { ocr: tesseractOcr, concurrency: 1, deadline });
    t.deepEqual(
      analysis.documents.map((d) => [d.filename, d.unreadable]),
      [
        ['scan.png', null],
        ['note.pdf', OUT_OF_TIME],
      ],
    );
    // Read in time, the scan says what it says (confidence well above 0); here it is illegible.
    t.deepEqual(analysis.loan.documents[0]?.pages, [{ number: 1, source: 'ocr', confidence: 0 }]);
    const inTime = await analyseDocuments(
      docs.slice(0, 1),
      async (key) => bytes.get(key)!,
      () => {},
      { ocr: tesseractOcr },
    );
    t.true((inTime.loan.documents[0]?.pages[0]?.confidence ?? 0) > 60);
    t.regex(
      analysis.findings.find((f) => f.code === 'DOC-009')?.summary ?? '',
      /note\.pdf \(could not be read: the review's reading time ran out before this file\)/,
    );
    t.regex(analysis.findings.find((f) => f.code === 'DOC-006')?.summary ?? '', /scan\.png/);
  },
);

test('a rule that throws on odd data is logged and skipped; the other rules still report', (t) => {
  // A date no reader would produce (years are checked when printed values are parsed), handed straight in.
  const loan = loanFile(
    doc(
      'closing_disclosure',
      { dateIssued: at('9999-12-30'), closingDate: at('9999-12-31'), fees: [] },
      { filename: 'cd.pdf' },
    ),
  );
  const log = recordingLogger();
  const findings = runRules(loan, DEFAULT_RULE_CONTEXT, log);
  const logged = log.records.map((r) => r.message);
  t.true(
    logged.some((m) => /^rule TRD-002 failed and was skipped/.test(m)),
    logged.join('\n'),
  );
  t.true(findings.some((f) => f.code === 'DOC-001'));
});

test('a Closing Disclosure page sent on its own (undated) is not taken for the final Closing Disclosure', async (t) => {
  const full = readFileSync(new URL('cd_sample_fixed_rate_h25b.pdf', corpus));
  const source = await PDFDocument.load(full);
  const fragment = await PDFDocument.create();
  // Form page 3 of 5 (file page 4): Calculating Cash to Close, no Date Issued, no APR.
  const [page] = await fragment.copyPages(source, [3]);
  fragment.addPage(page);
  const bytes = new Map<string, Uint8Array>([
    ['cd.pdf', full],
    ['cd-page-3.pdf', await fragment.save()],
  ]);
  const docs = pdfsToAnalyse(bytes);
  const analysis = await analyseDocuments(docs, async (key) => bytes.get(key)!);
  t.deepEqual(
    analysis.loan.documents.map((d) => [d.filename, d.documentClass]),
    [
      ['cd.pdf', 'closing_disclosure'],
      ['cd-page-3.pdf', 'closing_disclosure'],
    ],
  );
  t.false(
    analysis.findings.some((f) => f.code === 'APR-006'),
    'the dated CD prints its APR',
  );
  t.true(analysis.findings.some((f) => f.code === 'TRD-002' && f.summary.includes('cd.pdf')));
});
