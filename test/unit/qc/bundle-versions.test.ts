// A loan file in one PDF where a Closing Disclosure is followed by a corrected copy that restarts no
// numbering, then a W-2 whose first page is its instructions: the corrected copy is a CD of its own and is
// compared with the first (DOC-012), and the instruction page joins the W-2, not the CD before it. A Loan
// Estimate followed by a revised one in the same file: the revised one is a Loan Estimate of its own, held
// to the revised estimate's timing (TRD-004).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { analyseDocuments } from '../../../src/qc/analyse.js';
import { terminatePdfThreads } from '../../../src/qc/reading/pdf-threads.js';

test.after.always(() => terminatePdfThreads());

const corpus = new URL('../../corpus/', import.meta.url);
const cdSample = readFileSync(new URL('cfpb/cd_sample_fixed_rate_h25b.pdf', corpus));
const leSample = readFileSync(new URL('cfpb/le_sample_fixed_rate_h24b.pdf', corpus));
const w2Form = readFileSync(new URL('public-docs/clean/irs_w2.pdf', corpus));

/** Appends every page of `pdf`. */
async function append(out: PDFDocument, pdf: Uint8Array): Promise<void> {
  const source = await PDFDocument.load(pdf);
  for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
}

/** A new version's page: its title, and terms as a disclosure's first page prints them, label and value. */
async function versionPage(out: PDFDocument, title: string, rows: [string, string][]): Promise<void> {
  const page = out.addPage([612, 792]);
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  page.drawText(title, { x: 36, y: 750, size: 16, font: bold });
  rows.forEach(([label, value], i) => {
    page.drawText(label, { x: 36, y: 700 - i * 24, size: 10, font: bold });
    page.drawText(value, { x: 150, y: 700 - i * 24, size: 10, font });
  });
}

/** The CD sample, a corrected copy of its terms (another loan amount and rate, no page numbering), the W-2. */
async function bundle(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  await append(out, cdSample);
  await versionPage(out, 'Closing Disclosure — CORRECTED COPY (supersedes all prior versions)', [
    ['Date Issued', '4/15/2013'],
    ['Loan ID #', '123456789'],
    ['Loan Term', '30 years'],
    ['Loan Amount', '$172,000'],
    ['Interest Rate', '4.25 %'],
  ]);
  await append(out, w2Form);
  return out.save();
}

async function analysed(bytes: Uint8Array) {
  return analyseDocuments(
    [{ id: '0', filename: 'loan-file.pdf', mime: 'application/pdf', objectKey: '0' }],
    async () => bytes,
    () => {},
    { concurrency: 1 },
  );
}

test(
  'the corrected copy is a Closing Disclosure of its own, compared ' + 'with the first; the W-2 keeps its instructions',
  async (t) => {
    const analysis = await analysed(await bundle());
    const w2Pages = (await PDFDocument.load(w2Form)).getPageCount();
    t.deepEqual(
      analysis.loan.documents.map((d) => [d.documentClass, d.pages.map((p) => p.number)]),
      [
        ['closing_disclosure', [1, 2, 3, 4, 5, 6]],
        ['closing_disclosure', [7]],
        ['w2', Array.from({ length: w2Pages }, (_, i) => 8 + i)],
      ],
    );
    const conflict = analysis.findings.find((f) => f.code === 'DOC-012');
    t.truthy(conflict, analysis.findings.map((f) => f.code).join(', '));
    t.regex(conflict?.summary ?? '', /\$162,000\.00.*\$172,000\.00|\$172,000\.00.*\$162,000\.00/);
    t.true(conflict!.evidence.some((e) => e.page === 7 && e.field === 'loan_amount'));
  },
);

test('a revised Loan Estimate inside a loan file is a Loan Estimate of its own, held to its timing', async (t) => {
  // The LE sample (issued 2/15/2013), a revised one issued 4/12/2013 whose numbering does not restart, and
  // the CD sample (issued and closing 4/15/2013): the revised LE is received, by the mailbox rule, after it.
  const out = await PDFDocument.create();
  await append(out, leSample);
  const estimatePages = out.getPageCount();
  await versionPage(out, 'Loan Estimate — REVISED', [
    ['Date Issued', '4/12/2013'],
    ['Loan Term', '30 years'],
    ['Loan Amount', '$162,000'],
  ]);
  await append(out, cdSample);
  const analysis = await analysed(await out.save());
  t.deepEqual(
    analysis.loan.documents.map((d) => [d.documentClass, d.pages.length]),
    [
      ['loan_estimate', estimatePages],
      ['loan_estimate', 1],
      ['closing_disclosure', 6],
    ],
  );
  const late = analysis.findings.find((f) => f.code === 'TRD-004');
  t.regex(late?.summary ?? '', /revised Loan Estimate \(loan-file\.pdf, p\.\d+\).*2013-04-12/, late?.summary);
  t.true(late!.evidence.some((e) => e.page === estimatePages + 1));
});
