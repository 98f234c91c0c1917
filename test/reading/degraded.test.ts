// Hard cases made from the CFPB samples (test/support/degrade.ts): a form photographed or scanned one page
// per file, turned, speckled, JPEG-compressed, in a shadow. Its pages are joined back into one document by
// their "Page x of y", and it reads as its clean original.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseDocuments } from '../../src/qc/analyse.js';
import type { LoanDocument } from '../../src/qc/fields.js';
import { joinPageImages } from '../../src/qc/logical-documents.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { terminateOcr } from '../../src/qc/reading/ocr.js';
import { readWithoutTimeBudgets } from '../support/reading-budgets.js';
import { CFPB } from '../corpus/expected.js';
import { DEGRADATIONS, degradedPages, imagePdf } from '../support/degrade.js';

readWithoutTimeBudgets({ ocrWorkers: 2 });
test.after.always(() => terminateOcr());

const sample = (file: string) => readFileSync(new URL(`../corpus/cfpb/${file}`, import.meta.url));

/** Share of the expected values read (pages left aside: they count within each file). */
function share(
  docs: readonly LoanDocument[],
  expected: Record<string, [unknown, number]>,
): { same: number; of: number; differing: string[] } {
  const read = Object.assign({}, ...docs.map((d) => d.fields)) as Record<string, { value: unknown } | undefined>;
  const names = Object.keys(expected);
  const differing = names.filter((n) => JSON.stringify(read[n]?.value) !== JSON.stringify(expected[n]![0]));
  return { same: names.length - differing.length, of: names.length, differing };
}

test(
  'the H-24(B) Loan Estimate as one JPEG per page (200 dpi, turned 1.5°, speckled, JPEG 50) is ' +
    'one Loan Estimate again, with at least 90% of its fields',
  async (t) => {
    const jpegs = await degradedPages(sample('le_sample_fixed_rate_h24b.pdf'), DEGRADATIONS[1]!, [2, 3, 4]);
    const uploads = jpegs.map((bytes, i) => ({
      id: String(i),
      filename: `le-page-${i + 1}.jpg`,
      mime: 'image/jpeg',
      objectKey: String(i),
      bytes,
    }));
    const analysis = await analyseDocuments(
      uploads,
      async (key) => uploads[Number(key)]!.bytes,
      () => {},
      { ocr: tesseractOcr, concurrency: 2 },
    );
    t.deepEqual(
      analysis.loan.documents.map((d) => [
        d.documentClass,
        d.pages.map((p) => `${p.file ?? d.filename}:${p.footer?.index}/${p.footer?.of}`),
      ]),
      [['loan_estimate', ['le-page-1.jpg:1/3', 'le-page-2.jpg:2/3', 'le-page-3.jpg:3/3']]],
    );
    const { same, of, differing } = share(analysis.loan.documents, CFPB['le_sample_fixed_rate_h24b.pdf']!.fields);
    t.log(`${same}/${of} fields as printed${differing.length ? `; not: ${differing.join(', ')}` : ''}`);
    // The corpus scans reach 95% and more; at 200 dpi and JPEG 50 the check boxes and a fee line's small print go.
    t.true(same >= Math.ceil(0.9 * of), differing.join(', '));
    t.false(
      analysis.findings.some((f) => f.code === 'DOC-007'),
      'no page is missing from the joined form',
    );
    // A value read on the second image cites that file.
    const lender = (analysis.loan.documents[0]!.fields as { lender?: { file?: string; page: number } }).lender;
    t.deepEqual(lender && [lender.file, lender.page], ['le-page-3.jpg', 1]);
  },
);

test(
  'the H-25(B) Closing Disclosure photographed in a shadow reads at least 90% of its fields ' + 'as printed',
  async (t) => {
    const shaded = DEGRADATIONS.find((d) => d.shade)!;
    const bytes = await imagePdf(await degradedPages(sample('cd_sample_fixed_rate_h25b.pdf'), shaded));
    const analysis = await analyseDocuments(
      [{ id: '1', filename: 'cd.pdf', mime: 'application/pdf', objectKey: 'k' }],
      async () => bytes,
      () => {},
      { ocr: tesseractOcr, concurrency: 2 },
    );
    t.deepEqual(
      analysis.loan.documents.map((d) => d.documentClass),
      ['closing_disclosure'],
    );
    const { same, of, differing } = share(analysis.loan.documents, CFPB['cd_sample_fixed_rate_h25b.pdf']!.fields);
    t.log(`${same}/${of} fields as printed${differing.length ? `; not: ${differing.join(', ')}` : ''}`);
    t.true(same >= Math.ceil(0.9 * of), differing.join(', '));
  },
);

test('pages of one form in separate files join only when their numbering goes on', (t) => {
  const page = (file: string, index: number, of: number) => ({
    documentClass: 'loan_estimate' as const,
    filename: file,
    pages: [{ number: 1, source: 'ocr' as const, confidence: 90, footer: { index, of } }],
    fields: { fees: [] },
  });
  t.is(joinPageImages([page('a.jpg', 1, 3), page('b.jpg', 2, 3), page('c.jpg', 3, 3)]).length, 1);
  t.is(joinPageImages([page('a.jpg', 1, 3), page('b.jpg', 3, 3)]).length, 2, 'a page missing between them');
  t.is(joinPageImages([page('a.jpg', 1, 3), page('b.jpg', 2, 4)]).length, 2, 'another numbering');
  t.is(
    joinPageImages([page('a.jpg', 1, 2), { ...page('b.jpg', 2, 2), documentClass: 'closing_disclosure' as const }])
      .length,
    2,
    'another form',
  );
});
