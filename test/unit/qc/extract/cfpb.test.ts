// Extraction on the real CFPB model-form samples (RULES.md, Corpus): every listed field comes out exactly
// as printed, on the page it is printed on (file pages: each sample starts with a cover sheet).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseFile } from '../../../../src/qc/logical-documents.js';
import type { LoanDocument } from '../../../../src/qc/fields.js';
import { CFPB, type Expected } from '../../../corpus/expected.js';

const corpus = new URL('../../../corpus/cfpb/', import.meta.url);

async function onlyDocument(file: string): Promise<LoanDocument> {
  const { documents, unreadable } = await analyseFile(file, 'application/pdf', readFileSync(new URL(file, corpus)));
  if (unreadable !== null || documents.length !== 1)
    throw new Error(`${file}: ${unreadable ?? `${documents.length} documents`}`);
  return documents[0]!;
}

function fieldsOf(doc: LoanDocument, names: string[]): Expected {
  const fields = doc.fields as Record<string, { value: unknown; page: number } | undefined>;
  return Object.fromEntries(names.map((n) => [n, fields[n] ? [fields[n].value, fields[n].page] : ['(missing)', 0]]));
}

for (const [file, { class: cls, fields: expected }] of Object.entries(CFPB)) {
  test(`${file}: one ${cls} whose fields read exactly as printed`, async (t) => {
    const doc = await onlyDocument(file);
    t.is(doc.documentClass, cls);
    t.deepEqual(fieldsOf(doc, Object.keys(expected)), expected);
  });
}

test(
  'the H-24(B) Loan Estimate hides clipped runs ("Purchase ce", a 19-digit loan ID) that are ' + 'not printed',
  async (t) => {
    const doc = await onlyDocument('le_sample_fixed_rate_h24b.pdf');
    const fields = doc.fields as Record<string, { value: unknown } | undefined>;
    t.is(fields.purpose?.value, 'Purchase');
    t.is(fields.loanId?.value, '123456789');
  },
);

test('the H-25(B) cost tables give each borrower-paid fee line, before-closing amounts included', async (t) => {
  const doc = await onlyDocument('cd_sample_fixed_rate_h25b.pdf');
  if (doc.documentClass !== 'closing_disclosure') return t.fail();
  const fees = doc.fields.fees.map((f) => `${f.section} ${f.name} ${f.amount}`);
  t.true(fees.includes('A Underwriting Fee 109700'));
  t.true(fees.includes('B Credit Report Fee 2980'), 'paid before closing by the borrower');
  t.false(
    fees.some((f) => f.includes('Appraisal Fee')),
    'paid by others, not by the borrower',
  );
  t.false(
    fees.some((f) => f.includes('Transfer Tax')),
    'seller-paid',
  );
  const sections = (s: string) => doc.fields.fees.filter((f) => f.section === s).reduce((sum, f) => sum + f.amount, 0);
  // The printed section totals: A $1,802.00, B $236.55, C $2,655.50 (D = $4,694.05).
  t.deepEqual([sections('A'), sections('B'), sections('C')], [180_200, 23_655, 265_550]);
});

test('footers give each page its place in the form: pages 1–5 of 5 after the cover sheet', async (t) => {
  const doc = await onlyDocument('cd_sample_fixed_rate_h25b.pdf');
  t.deepEqual(
    doc.pages.map((p) => p.footer?.index ?? null),
    [null, 1, 2, 3, 4, 5],
  );
});
