// A long file's documents are split and extracted in a thread of their own, so that its extraction never
// holds the worker's event loop; what comes back is what extraction in place gives, and a thread past its
// budget makes the file unreadable rather than the analysis fail.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { analyseDocuments } from '../../../src/qc/analyse.js';
import {
  configureExtraction,
  extractionsInThreads,
  INLINE_EXTRACTION_PAGES,
} from '../../../src/qc/extraction-threads.js';
import { analyseFile, documentsOfReading } from '../../../src/qc/logical-documents.js';
import { readFile } from '../../../src/qc/reading/document.js';
import { terminatePdfThreads } from '../../../src/qc/reading/pdf-threads.js';

const corpus = new URL('../../corpus/cfpb/', import.meta.url);
const sample = (name: string) => new Uint8Array(readFileSync(new URL(name, corpus)));

/** The CFPB Loan Estimate and Closing Disclosure, then a 30-page addendum: a loan file of 40 pages. */
async function longLoanFile(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const name of ['le_sample_fixed_rate_h24b.pdf', 'cd_sample_fixed_rate_h25b.pdf']) {
    const source = await PDFDocument.load(sample(name));
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  const font = await out.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 30; i++) {
    const page = out.addPage([612, 792]);
    page.drawText(i === 1 ? 'ADDENDUM TO CLOSING DISCLOSURE' : `Addendum page ${i} of 30`, {
      x: 72,
      y: 720,
      size: 14,
      font,
    });
    page.drawText('The borrower agrees to the terms stated in this addendum.', { x: 72, y: 680, size: 10, font });
  }
  return out.save();
}

test.after.always(() => terminatePdfThreads());

test.serial("a long file's documents come from a thread, as extraction in place gives them", async (t) => {
  const bytes = await longLoanFile();
  const reading = await readFile(bytes, 'application/pdf');
  if (!reading.readable) return t.fail(reading.reason);
  t.true(reading.pages.length > INLINE_EXTRACTION_PAGES);

  const before = extractionsInThreads();
  const { documents, unreadable } = await analyseFile('loan-file.pdf', 'application/pdf', bytes);
  t.is(extractionsInThreads(), before + 1);
  t.is(unreadable, null);
  t.deepEqual(
    documents.map((d) => d.documentClass),
    ['loan_estimate', 'closing_disclosure'],
  );
  t.deepEqual(documents, documentsOfReading('loan-file.pdf', reading));
});

test.serial('a file of a few pages is extracted in place, with no thread', async (t) => {
  const before = extractionsInThreads();
  const { documents } = await analyseFile('cd.pdf', 'application/pdf', sample('cd_sample_fixed_rate_h25b.pdf'));
  t.deepEqual(
    documents.map((d) => d.documentClass),
    ['closing_disclosure'],
  );
  t.is(extractionsInThreads(), before);
});

test.serial(
  'a file whose extraction overruns its budget is unreadable, and the package is still analysed',
  async (t) => {
    const bytes = new Map([
      ['loan-file.pdf', await longLoanFile()],
      ['le.pdf', sample('le_sample_fixed_rate_h24b.pdf')],
    ]);
    const previous = configureExtraction({ timeoutMs: 1 });
    try {
      const analysis = await analyseDocuments(
        [...bytes.keys()].map((name, i) => ({
          id: String(i),
          filename: name,
          mime: 'application/pdf',
          objectKey: name,
        })),
        async (key) => bytes.get(key)!,
      );
      t.deepEqual(
        analysis.documents.map((d) => [d.filename, d.classes]),
        [
          ['loan-file.pdf', []],
          ['le.pdf', ['loan_estimate']],
        ],
      );
      t.regex(analysis.documents[0]!.unreadable ?? '', /extraction failed: it took longer than 1 ms/);
      t.true(analysis.findings.some((f) => f.code === 'DOC-009' && f.summary.includes('loan-file.pdf')));
    } finally {
      configureExtraction(previous);
    }
  },
);
