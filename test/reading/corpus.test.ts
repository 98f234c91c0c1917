// Reading real public loan documents (test/corpus/public-docs): filled samples field by field, blank forms
// giving no values, scans giving their clean twin's fields, and whole loan files split into the documents
// their page JSON names.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseFile } from '../../src/qc/logical-documents.js';
import type { LoanDocument } from '../../src/qc/fields.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { terminateOcr } from '../../src/qc/reading/ocr.js';
import { readWithoutTimeBudgets } from '../support/reading-budgets.js';
import { analyseDocuments } from '../../src/qc/analyse.js';
import { FILLED } from '../corpus/expected.js';

const corpus = new URL('../corpus/public-docs/', import.meta.url);
const cfpb = new URL('../corpus/cfpb/', import.meta.url);

readWithoutTimeBudgets({ ocrWorkers: 2 });
test.after.always(() => terminateOcr());

async function documentsOf(url: URL): Promise<LoanDocument[]> {
  const name = url.pathname.split('/').at(-1)!;
  const { documents, unreadable } = await analyseFile(name, 'application/pdf', readFileSync(url), tesseractOcr);
  if (unreadable !== null) throw new Error(`${name}: ${unreadable}`);
  return documents;
}

/** Field → [value, page] of every field a document read (fee lines left out: the CFPB tests cover them). */
function fieldsOf(doc: LoanDocument): Record<string, [unknown, number]> {
  const fields = doc.fields as Record<string, { value: unknown; page: number } | unknown[]>;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => name !== 'fees')
      .map(([name, v]) => [name, [(v as { value: unknown }).value, (v as { page: number }).page]]),
  );
}

// ---- Filled forms, field by field ------------------------------------------------------------------------

for (const [file, expected] of Object.entries(FILLED)) {
  test(`${file}: one ${expected.class} whose every field reads as printed`, async (t) => {
    const documents = await documentsOf(new URL(`clean/${file}`, corpus));
    t.deepEqual(
      documents.map((d) => d.documentClass),
      [expected.class],
    );
    t.deepEqual(fieldsOf(documents[0]!), expected.fields);
  });
}

// ---- Blank forms: no values, so no findings built on them -------------------------------------------------

for (const [file, cls] of [
  ['le_blank_h24.pdf', 'loan_estimate'],
  ['cd_blank_h25a.pdf', 'closing_disclosure'],
  ['cd_page2_cost_modifications_h25h.pdf', 'closing_disclosure'],
  ['cd_seller_illustration_h25hi.pdf', 'closing_disclosure'],
  ['irs_w2.pdf', 'w2'],
  ['urar_form_1004_epa.pdf', 'appraisal'],
  ['hud1_explainer_sample.pdf', 'settlement_statement'],
] as const) {
  test(`the blank ${file} is one ${cls} and gives no values (its hidden sample text included)`, async (t) => {
    const documents = await documentsOf(new URL(`clean/${file}`, corpus));
    // One form, however many versions of a page the model form prints ("Page 1 of 3" three times).
    t.is(documents.length, 1, documents.map((d) => d.pages.map((p) => p.number).join(',')).join(' | '));
    for (const doc of documents) {
      t.is(doc.documentClass, cls);
      t.deepEqual(fieldsOf(doc), {});
      t.deepEqual((doc.fields as { fees?: unknown[] }).fees ?? [], []);
    }
  });
}

test('a résumé is a document of no loan class', async (t) => {
  const documents = await documentsOf(new URL('clean/resume_alvarez.pdf', corpus));
  t.deepEqual(
    documents.map((d) => [d.documentClass, fieldsOf(d)]),
    [['other', {}]],
  );
});

// ---- Scans: the clean twin's fields ------------------------------------------------------------------

/**
 * Each scan's class and its share of its clean twin's fields (those on the pages the scan holds: some
 * scans are of the first pages only). Where a form is below 95%, what OCR loses is named.
 */
const SCANS: [string, URL, number, string?][] = [
  ['le_sample_fixed_rate_h24b', cfpb, 1],
  ['le_sample_arm_interest_only_h24c', cfpb, 1],
  ['cd_sample_refi_excess_cost_h25f1', cfpb, 1],
  ['le_sample_balloon_h24e', new URL('clean/', corpus), 1],
  // The Conventional box's mark is lost by OCR: found in the page's pixels.
  ['le_sample_neg_am_h24f', new URL('clean/', corpus), 1],
  // Read again with the Spanish model: "30 años" (the English one reads "30 2/705"), the accents of the
  // product; the P&I's "$" reads "9" (repaired), its label wraps over two lines; the rate lock's marked box
  // is found in the pixels though OCR garbles its "SÍ".
  ['le_sample_arm_spanish_h28b', new URL('clean/', corpus), 1],
  ['cd_sample_fixed_spanish_h28g', new URL('clean/', corpus), 1],
  ['paystub_lindqvist', new URL('clean/', corpus), 1],
  ['paystub_okafor', new URL('clean/', corpus), 1],
];

for (const [name, folder, share, lost] of SCANS) {
  const fields = share === 1 ? 'every field' : `at least ${(share * 100).toFixed(0)}% of the fields`;
  test(`the scan of ${name} gives ${fields} of its clean twin${lost ? ` (OCR loses ${lost})` : ''}`, async (t) => {
    const clean = await documentsOf(new URL(`${name}.pdf`, folder));
    const scan = await documentsOf(new URL(`scans/${name}_scan.pdf`, corpus));
    t.deepEqual(
      scan.map((d) => d.documentClass),
      clean.map((d) => d.documentClass),
    );
    const scanned = Math.max(...scan.flatMap((d) => d.pages.map((p) => p.number)));
    const expected = Object.assign({}, ...clean.map(fieldsOf)) as Record<string, [unknown, number]>;
    const read = Object.assign({}, ...scan.map(fieldsOf)) as Record<string, [unknown, number]>;
    const names = Object.keys(expected).filter((n) => expected[n]![1] <= scanned);
    const same = names.filter((n) => JSON.stringify(read[n]) === JSON.stringify(expected[n]));
    const differing = names
      .filter((n) => !same.includes(n))
      .map((n) => `${n}: ${JSON.stringify(read[n]?.[0])} for ${JSON.stringify(expected[n]![0])}`);
    t.log(
      `${same.length}/${names.length} fields as the clean twin${differing.length ? `; ${differing.join('; ')}` : ''}`,
    );
    t.true(names.length > 0);
    t.true(same.length >= Math.round(share * names.length), differing.join('; '));
    // A field the clean twin does not have is a misreading.
    t.deepEqual(
      Object.keys(read).filter((n) => !(n in expected)),
      [],
    );
  });
}

for (const name of ['le_blank_h24', 'cd_blank_h25a', 'irs_w2', 'urar_form_1004_epa', 'hud1_explainer_sample']) {
  test(`the scan of the blank ${name} gives no values either`, async (t) => {
    for (const doc of await documentsOf(new URL(`scans/${name}_scan.pdf`, corpus))) t.deepEqual(fieldsOf(doc), {});
  });
}

// ---- Loan files in one PDF -----------------------------------------------------------------------

interface PageLabel {
  page: number;
  source: string;
  role: string;
}

for (const bundle of ['loan_file_02_injection', 'loan_file_03_income_conflict']) {
  test(`${bundle}: every page lands in the document its JSON names, and no distractor page supplies a value`, async (t) => {
    const labels = (
      JSON.parse(readFileSync(new URL(`bundles/${bundle}.json`, corpus), 'utf8')) as { pages: PageLabel[] }
    ).pages;
    const documents = await documentsOf(new URL(`bundles/${bundle}.pdf`, corpus));
    // Pages of one source must make one document, and a document hold pages of one source.
    const docOf = new Map(documents.flatMap((d, i) => d.pages.map((p) => [p.number, i] as const)));
    const sourceDocs = new Map<string, Set<number>>();
    for (const l of labels)
      sourceDocs.set(l.source, (sourceDocs.get(l.source) ?? new Set()).add(docOf.get(l.page) ?? -1));
    const right = labels.filter((l) => {
      const doc = docOf.get(l.page);
      return (
        doc !== undefined &&
        sourceDocs.get(l.source)!.size === 1 &&
        labels.every((o) => o.source === l.source || docOf.get(o.page) !== doc)
      );
    });
    t.is(right.length, labels.length, `${right.length}/${labels.length} pages in their own document`);
    const distractors = new Set(labels.filter((l) => l.role === 'distractor').map((l) => l.page));
    for (const doc of documents.filter((d) => d.pages.some((p) => !distractors.has(p.number)))) {
      for (const [name, [, page]] of Object.entries(fieldsOf(doc)))
        t.false(distractors.has(page), `${doc.documentClass}.${name} read from distractor page ${page}`);
    }
  });
}

test('an instruction-injection page is data: the loan file is read and judged as if it were not there', async (t) => {
  const bytes = readFileSync(new URL('bundles/loan_file_02_injection.pdf', corpus));
  const analysis = await analyseDocuments(
    [{ id: '1', filename: 'loan.pdf', mime: 'application/pdf', objectKey: 'k' }],
    async () => bytes,
  );
  const cd = analysis.loan.documents.find((d) => d.documentClass === 'closing_disclosure');
  t.deepEqual(cd && fieldsOf(cd).loanAmount, [15_000_000, 6]);
  t.false(analysis.findings.some((f) => /\$1\.00|\$99,999|approve/i.test(f.summary)));
  t.false(
    analysis.loan.documents.some((d) => d.pages.some((p) => p.number === 11) && Object.keys(fieldsOf(d)).length > 0),
  );
});

test('a stated-income affidavit that conflicts with the pay stub is INC-004', async (t) => {
  const bytes = readFileSync(new URL('bundles/loan_file_03_income_conflict.pdf', corpus));
  const analysis = await analyseDocuments(
    [{ id: '1', filename: 'loan.pdf', mime: 'application/pdf', objectKey: 'k' }],
    async () => bytes,
  );
  t.deepEqual(
    analysis.loan.documents.map((d) => d.documentClass),
    ['closing_disclosure', 'pay_stub', 'affidavit', 'other'],
  );
  const inc = analysis.findings.filter((f) => f.code === 'INC-004');
  t.is(inc.length, 1);
  t.regex(
    inc[0]!.summary,
    /states monthly income \$25,000\.00; Pay stub \(loan\.pdf, p\.7\) shows gross pay \$3,100\.00 a period, 26 periods a year: \$6,716\.67 a month/,
  );
});
