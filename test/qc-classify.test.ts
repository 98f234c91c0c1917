// Classification by the titles a page prints, and splitting of multi-document files by page (CFPB
// samples with their cover sheets, prose that mentions forms, restarting page numbers).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { pageClass, pageFooter, splitDocuments } from '../src/qc/classify.js';
import { analyseFile } from '../src/qc/logical-documents.js';
import { corruptPdf, pdf } from './support/fixtures.js';

const corpus = new URL('./corpus/cfpb/', import.meta.url);

for (const [file, expected] of [
  ['cd_sample_fixed_rate_h25b.pdf', 'closing_disclosure'],
  ['cd_sample_refi_excess_cost_h25f1.pdf', 'closing_disclosure'],
  ['le_sample_fixed_rate_h24b.pdf', 'loan_estimate'],
  ['le_sample_arm_interest_only_h24c.pdf', 'loan_estimate'],
] as const) {
  test(`the CFPB sample ${file} is one ${expected}, its cover sheet included`, async (t) => {
    const { documents } = await analyseFile(file, 'application/pdf', readFileSync(new URL(file, corpus)));
    t.deepEqual(
      documents.map((d) => [d.documentClass, d.pages[0]?.number]),
      [[expected, 1]],
    );
  });
}

test('a title is a line of its own near the top of a page', (t) => {
  t.is(pageClass(['NOTE', 'May 1, 2026']), 'note');
  t.is(pageClass(['DEED OF TRUST']), 'security_instrument');
  t.is(pageClass(['Uniform Residential Loan Application']), 'urla');
  t.is(pageClass(['Uniform Residential Appraisal Report']), 'appraisal');
  t.is(pageClass(['Earnings Statement']), 'pay_stub');
  t.is(pageClass(['Form W-2 Wage and Tax Statement 2025']), 'w2');
  t.is(pageClass(['First Bank', 'Checking Statement']), 'bank_statement');
  t.is(pageClass(['Residential Mortgage Credit Report']), 'credit_report');
  t.is(pageClass(['Note: bring two forms of ID']), null);
  t.is(pageClass(['See your note and security instrument for information about']), null);
  t.is(pageClass(['Other Disclosures', 'CLOSING DISCLOSURE PAGE 5 OF 5 • LOAN ID # 1']), 'closing_disclosure', 'the running footer');
});

test('"Page x of y" footers are read from the foot of the page', (t) => {
  t.deepEqual(pageFooter(['NOTE', 'text', 'Page 2 of 3']), { index: 2, of: 3 });
  t.is(pageFooter(['Page 4 of 3']), undefined);
});

test('a multi-document file splits where a page announces another form or restarts its numbering', (t) => {
  const runs = splitDocuments([
    ['Fax cover sheet', 'To: underwriting'],
    ['NOTE', 'Page 1 of 2'],
    ['more terms', 'Page 2 of 2'],
    ['DEED OF TRUST', 'Page 1 of 1'],
    ['Earnings Statement', 'Page 1 of 1'],
    ['Earnings Statement', 'Page 1 of 1'],
  ]);
  t.deepEqual(runs, [
    { documentClass: 'note', pages: [0, 1, 2] },
    { documentClass: 'security_instrument', pages: [3] },
    { documentClass: 'pay_stub', pages: [4] },
    { documentClass: 'pay_stub', pages: [5] },
  ]);
});

test('a file with no title is one document of class other', async (t) => {
  const { documents } = await analyseFile('letter.pdf', 'application/pdf', await pdf('Dear borrower, thank you.'));
  t.deepEqual(documents.map((d) => d.documentClass), ['other']);
});

test('a PDF that cannot be parsed is unreadable, not an exception', async (t) => {
  const result = await analyseFile('broken.pdf', 'application/pdf', corruptPdf);
  t.deepEqual(result.documents, []);
  t.truthy(result.unreadable);
});

test('a page whose content stream is damaged reads as empty; the rest of the file is still read', async (t) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('NOTE', { x: 72, y: 700, size: 12, font });
  const damaged = doc.addPage([612, 792]);
  damaged.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { Filter: 'FlateDecode' })));
  damaged.node.set(PDFName.of('Resources'), doc.context.obj(7));
  const { documents, unreadable } = await analyseFile('note.pdf', 'application/pdf', await doc.save());
  t.is(unreadable, null);
  t.deepEqual(documents.map((d) => [d.documentClass, d.pages.map((p) => p.number)]), [['note', [1, 2]]]);
});
