// A loan file in one PDF where a Closing Disclosure is followed by a corrected copy that restarts no
// numbering, then a W-2 whose first page is its instructions: the corrected copy is a CD of its own and is
// compared with the first (DOC-012), and the instruction page joins the W-2, not the CD before it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { analyseDocuments } from '../../../src/qc/analyse.js';
import { terminatePdfThreads } from '../../../src/qc/reading/pdf-threads.js';

test.after.always(() => terminatePdfThreads());

const corpus = new URL('../../corpus/', import.meta.url);
const cdSample = readFileSync(new URL('cfpb/cd_sample_fixed_rate_h25b.pdf', corpus));
const w2Form = readFileSync(new URL('public-docs/clean/irs_w2.pdf', corpus));

/** The CD sample, a corrected copy of its terms (another loan amount and rate, no page numbering), the W-2. */
async function bundle(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const cd = await PDFDocument.load(cdSample);
  for (const page of await out.copyPages(cd, cd.getPageIndices())) out.addPage(page);
  // The corrected copy: its title, and the loan terms as the form's first page prints them, other ones.
  const corrected = out.addPage([612, 792]);
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  corrected.drawText('Closing Disclosure — CORRECTED COPY (supersedes all prior versions)', {
    x: 36,
    y: 750,
    size: 16,
    font: bold,
  });
  const rows: [string, string][] = [
    ['Date Issued', '4/15/2013'],
    ['Loan ID #', '123456789'],
    ['Loan Term', '30 years'],
    ['Loan Amount', '$172,000'],
    ['Interest Rate', '4.25 %'],
  ];
  rows.forEach(([label, value], i) => {
    corrected.drawText(label, { x: 36, y: 700 - i * 24, size: 10, font: bold });
    corrected.drawText(value, { x: 150, y: 700 - i * 24, size: 10, font });
  });
  const w2 = await PDFDocument.load(w2Form);
  for (const page of await out.copyPages(w2, w2.getPageIndices())) out.addPage(page);
  return out.save();
}

test(
  'the corrected copy is a Closing Disclosure of its own, compared ' + 'with the first; the W-2 keeps its instructions',
  async (t) => {
    const bytes = await bundle();
    const analysis = await analyseDocuments(
      [{ id: '0', filename: 'loan-file.pdf', mime: 'application/pdf', objectKey: '0' }],
      async () => bytes,
      () => {},
      { concurrency: 1 },
    );
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
