// `npm run bench:reading`: how well and how fast the QC engine reads real loan documents, per corpus of
// test/corpus (CFPB clean samples, their scans upright and turned, and read again with every core busy; blank
// forms, Spanish forms, the official URLA filled, flattened and scanned, two whole loan files, long documents
// with their addenda) and of degradations made here from the CFPB samples (rendered at 150–300 dpi, tilted,
// sheared, speckled, JPEG-compressed; as image-only PDFs and as one image file per page). For each: fields
// read exactly as printed against those expected (test/corpus/expected.ts), values read from blank forms
// (want none), pages split into the right document, findings as expected (a scan's are its clean twin's),
// seconds per page. OCR runs OCR_WORKERS workers (default 2), as the worker process does.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { PDFDocument } from 'pdf-lib';
import { analyseDocuments, type Analysis, type DocumentToAnalyse } from '../src/qc/analyse.js';
import type { DocumentOf, LoanDocument } from '../src/qc/fields.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { configureOcr, terminateOcr } from '../src/qc/reading/ocr.js';
import { setPaperFlattening } from '../src/qc/reading/images.js';
import { terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';
import { CFPB, FILLED, type Expected } from '../test/corpus/expected.js';
import { type AssembledBundle, assembleBundles, corpusDocuments, pagesSplitRight } from '../test/support/bundles.js';
import { DEGRADATIONS, degradedPages, imagePdf, TURNED_DPI, turnedPages } from '../test/support/degrade.js';
import { withCoresSaturated } from '../test/support/machine-load.js';
import {
  appraisalWithAddenda,
  deedWithExhibitsAndRiders,
  loanFileWithLongDocuments,
  longBundle,
  noteWithRiders,
} from '../test/support/long-documents.js';
import {
  contradictionsAsExpected,
  employmentsAsExpected,
  fillOfficialUrla,
  flattened,
  OFFICIAL_URLA_BLANK,
  OFFICIAL_URLA_COPIES,
  OFFICIAL_URLA_SAMPLE,
  OFFICIAL_URLA_SAMPLE_EMPLOYMENTS,
  OFFICIAL_URLA_SAMPLE_EXPECTED,
  PYPDF_COPIES,
  type UrlaExpected,
  urlaAsExpected,
} from '../test/support/urla-official.js';

const root = new URL('../test/corpus/', import.meta.url);
const workers = Number(process.env.OCR_WORKERS ?? 2);
configureOcr({ workers });

interface Upload {
  filename: string;
  mime: string;
  bytes: Uint8Array;
}

interface Row {
  corpus: string;
  files: number;
  pages: number;
  exact: number;
  expected: number;
  spurious: number;
  splitRight: number;
  findingsAsExpected: number;
  findingsChecked: number;
  seconds: number;
}

const rows: Row[] = [];

/** Analyses `uploads` as one package, counting its files and its seconds into `row`. */
async function measured(row: Row, uploads: readonly Upload[]): Promise<Analysis> {
  const started = performance.now();
  const analysis = await analyse(uploads);
  row.seconds += (performance.now() - started) / 1000;
  row.files += uploads.length;
  return analysis;
}

function emptyRow(corpus: string): Row {
  return {
    corpus,
    files: 0,
    pages: 0,
    exact: 0,
    expected: 0,
    spurious: 0,
    splitRight: 0,
    findingsAsExpected: 0,
    findingsChecked: 0,
    seconds: 0,
  };
}

async function analyse(uploads: readonly Upload[]): Promise<Analysis> {
  const docs: DocumentToAnalyse[] = uploads.map((u, i) => ({
    id: String(i),
    filename: u.filename,
    mime: u.mime,
    objectKey: String(i),
  }));
  return analyseDocuments(
    docs,
    async (key) => uploads[Number(key)]!.bytes,
    () => {},
    { ocr: tesseractOcr, concurrency: workers },
  );
}

function fieldsOf(docs: readonly LoanDocument[]): Expected {
  const out: Expected = {};
  for (const doc of docs) {
    for (const [name, v] of Object.entries(doc.fields as Record<string, unknown>)) {
      if (name === 'fees' || name in out) continue;
      const located = v as { value: unknown; page: number };
      out[name] = [located.value, located.page];
    }
  }
  return out;
}

const pdf = (path: string): Upload => ({
  filename: path.split('/').at(-1)!,
  mime: 'application/pdf',
  bytes: readFileSync(new URL(path, root)),
});
const pageCount = (a: Analysis) => a.loan.documents.reduce((n, d) => n + d.pages.length, 0);
const codes = (a: Analysis) => [...new Set(a.findings.map((f) => f.code))].sort().join(',');

/** One filled form per package: its fields against the table, its pages all in one document of its class. */
interface FormCase {
  uploads: Upload[];
  cls: string;
  expected: Expected;
  /** Pages the uploads hold of the form (a scan may hold the first pages only). */
  pages?: number;
  /** The clean twin's findings, when this is a copy of it. */
  twin?: string;
}

async function formCorpus(name: string, cases: FormCase[]): Promise<void> {
  const row = emptyRow(name);
  for (const c of cases) {
    const analysis = await measured(row, c.uploads);
    const pages = pageCount(analysis);
    row.pages += pages;
    const read = fieldsOf(analysis.loan.documents.filter((d) => d.documentClass === c.cls));
    const wanted = Object.entries(c.expected).filter(([, [, page]]) => c.pages === undefined || page <= c.pages);
    row.expected += wanted.length;
    const exact = wanted.filter(([field, value]) => JSON.stringify(read[field]) === JSON.stringify(value));
    row.exact += exact.length;
    if (process.env.VERBOSE) {
      const missed = wanted
        .filter((w) => !exact.includes(w))
        .map(([f, v]) => `${f}=${JSON.stringify(read[f]?.[0])} (want ${JSON.stringify(v[0])})`);
      if (missed.length > 0) console.error(`${name} ${c.uploads[0]!.filename}: ${missed.join('; ')}`);
    }
    row.spurious += Object.keys(fieldsOf(analysis.loan.documents)).filter((f) => !(f in c.expected)).length;
    const one = analysis.loan.documents.length === 1 && analysis.loan.documents[0]!.documentClass === c.cls;
    row.splitRight += one ? pages : 0;
    if (c.twin !== undefined) {
      row.findingsChecked++;
      if (codes(analysis) === c.twin) row.findingsAsExpected++;
      else if (process.env.VERBOSE)
        console.error(`${name} ${c.uploads[0]!.filename}: findings ${codes(analysis)} against ${c.twin}`);
    }
  }
  rows.push(row);
}

/** Blank forms: one document of the form, and not one value read. */
async function blankCorpus(name: string, cases: { upload: Upload; cls: string }[]): Promise<void> {
  const row = emptyRow(name);
  for (const c of cases) {
    const analysis = await measured(row, [c.upload]);
    row.pages += pageCount(analysis);
    row.spurious += Object.keys(fieldsOf(analysis.loan.documents)).length;
    // One document of the form, however many versions of a page the model form prints.
    const [only] = analysis.loan.documents;
    if (analysis.loan.documents.length === 1 && only?.documentClass === c.cls) row.splitRight += only.pages.length;
    // A blank form raises no finding that rests on a value read: only the documentation rules and those
    // whose defect is the value's absence (APR-006 no APR disclosed, COL-001 no opinion of value) may fire.
    row.findingsChecked++;
    if (analysis.findings.every((f) => f.code.startsWith('DOC-') || f.code === 'APR-006' || f.code === 'COL-001'))
      row.findingsAsExpected++;
    else if (process.env.VERBOSE)
      console.error(
        `${name} ${c.upload.filename}: ${analysis.findings.map((f) => `${f.code}: ${f.summary}`).join(' | ')}`,
      );
  }
  rows.push(row);
}

/** An official URLA to read, with what must be read from it (a blank form: nothing). */
interface UrlaCase {
  upload: Upload;
  expected?: UrlaExpected;
  /** Every employment, as employmentsAsExpected gives it. */
  employments?: string[];
  /** Every contradiction, as contradictionsAsExpected gives it. */
  contradictions?: string[];
}

/**
 * Official URLAs (Form 1003): each copy's values, every employment (employer and monthly total, in the
 * form's order) and every contradiction against what it was filled with; the blank form's values (want
 * none) and findings (only documents missing from the package). An employment or a contradiction read
 * that the copy does not hold counts as a value not expected.
 */
async function urlaCorpus(name: string, cases: readonly UrlaCase[], uploads = [] as Upload[][]): Promise<void> {
  const row = emptyRow(name);
  for (const [i, c] of cases.entries()) {
    const analysis = await measured(row, uploads[i] ?? [c.upload]);
    const pages = pageCount(analysis);
    row.pages += pages;
    const [doc] = analysis.loan.documents;
    const one = analysis.loan.documents.length === 1 && doc?.documentClass === 'urla';
    row.splitRight += one ? pages : 0;
    const fields = one ? (doc as DocumentOf<'urla'>).fields : {};
    const read = urlaAsExpected(fields);
    const wanted = Object.entries(c.expected ?? {});
    const lists = [
      [employmentsAsExpected(fields), c.employments ?? []],
      [contradictionsAsExpected(fields), c.contradictions ?? []],
    ] as const;
    const expected = wanted.length + lists.reduce((n, [, want]) => n + want.length, 0);
    const exact =
      wanted.filter(([k, v]) => JSON.stringify(read[k as keyof UrlaExpected]) === JSON.stringify(v)).length +
      lists.reduce((n, [got, want]) => n + want.filter((w, j) => got[j] === w).length, 0);
    row.expected += expected;
    row.exact += exact;
    if (process.env.VERBOSE && exact < expected)
      console.error(
        `${name} ${c.upload.filename}: read ${JSON.stringify({ ...read, lists: lists.map(([got]) => got) })}, ` +
          `want ${JSON.stringify({ ...c.expected, lists: lists.map(([, want]) => want) })}`,
      );
    row.spurious +=
      Object.entries(read).filter(([k, v]) => v !== undefined && !(k in (c.expected ?? {}))).length +
      lists.reduce((n, [got, want]) => n + Math.max(0, got.length - want.length), 0);
    if (!c.expected) {
      // A blank form: no finding may cite it, only documents missing from the package.
      row.findingsChecked++;
      if (analysis.findings.every((f) => f.evidence.length === 0)) row.findingsAsExpected++;
    }
  }
  rows.push(row);
}

interface PageLabel {
  page: number;
  source: string;
}

async function bundleCorpus(
  name: string,
  bundles: { file: string; findings: (a: Analysis) => boolean }[],
): Promise<void> {
  const row = emptyRow(name);
  for (const b of bundles) {
    const labels = (
      JSON.parse(readFileSync(new URL(`public-docs/bundles/${b.file}.json`, root), 'utf8')) as { pages: PageLabel[] }
    ).pages;
    const started = performance.now();
    const analysis = await analyse([pdf(`public-docs/bundles/${b.file}.pdf`)]);
    row.seconds += (performance.now() - started) / 1000;
    row.files++;
    row.pages += labels.length;
    const docOf = new Map(analysis.loan.documents.flatMap((d, i) => d.pages.map((p) => [p.number, i] as const)));
    // A page is split right when its document holds exactly the pages of its source.
    for (const l of labels) {
      const mine = labels.filter((o) => o.source === l.source).map((o) => o.page);
      const together = labels.filter((o) => docOf.get(o.page) === docOf.get(l.page)).map((o) => o.page);
      if (JSON.stringify(mine) === JSON.stringify(together)) row.splitRight++;
    }
    row.findingsChecked++;
    if (b.findings(analysis)) row.findingsAsExpected++;
  }
  rows.push(row);
}

/** Loan files assembled from the corpus's documents (test/support/bundles.ts): pages split right. */
async function assembledCorpus(name: string, bundles: readonly AssembledBundle[]): Promise<void> {
  const row = emptyRow(name);
  for (const b of bundles) {
    const analysis = await measured(row, [{ filename: `${b.name}.pdf`, mime: 'application/pdf', bytes: b.bytes }]);
    row.pages += b.pages.length;
    const docOf = new Map(analysis.loan.documents.flatMap((d, i) => d.pages.map((p) => [p.number, i] as const)));
    row.splitRight += pagesSplitRight(b.pages, docOf);
  }
  rows.push(row);
}

const twins = new Map<string, string>();
async function twinFindings(upload: Upload): Promise<string> {
  let found = twins.get(upload.filename);
  if (found === undefined) twins.set(upload.filename, (found = codes(await analyse([upload]))));
  return found;
}

// Warm-up: the pdf.js threads and the OCR workers start once, as in a running worker.
await analyse([pdf('public-docs/scans/paystub_okafor_scan.pdf')]);

const cfpbCases = Object.entries(CFPB).map(([file, e]) => ({ upload: pdf(`cfpb/${file}`), e }));
const englishFilled = Object.entries(FILLED).filter(([file]) => !file.includes('spanish'));
const spanishFilled = Object.entries(FILLED).filter(([file]) => file.includes('spanish'));

await formCorpus('CFPB clean', [
  ...cfpbCases.map(({ upload, e }) => ({ uploads: [upload], cls: e.class, expected: e.fields })),
  ...englishFilled.map(([file, e]) => ({
    uploads: [pdf(`public-docs/clean/${file}`)],
    cls: e.class,
    expected: e.fields,
  })),
]);

const scanOf = (file: string) => pdf(`public-docs/scans/${file.replace(/\.pdf$/, '_scan.pdf')}`);
const hasScan = (file: string) => existsSync(new URL(`public-docs/scans/${file.replace(/\.pdf$/, '_scan.pdf')}`, root));
const scanCases = async (entries: [string, { class: string; fields: Expected }, Upload][]) =>
  Promise.all(
    entries
      .filter(([file]) => hasScan(file))
      .map(async ([file, e, clean]) => {
        const pages = await pagesOf(scanOf(file));
        // A scan of a form's first pages is held against the same pages of the clean form: the pages it
        // lacks are rightly missing (DOC-007) and their figures rightly absent (APR-006 on a CD cut before
        // its Loan Calculations).
        return {
          uploads: [scanOf(file)],
          cls: e.class,
          expected: e.fields,
          pages,
          twin: await twinFindings(await firstPages(clean, pages)),
        };
      }),
  );
async function pagesOf(upload: Upload): Promise<number> {
  return (await PDFDocument.load(upload.bytes)).getPageCount();
}
async function firstPages(upload: Upload, count: number): Promise<Upload> {
  const source = await PDFDocument.load(upload.bytes);
  if (source.getPageCount() <= count) return upload;
  const cut = await PDFDocument.create();
  for (const page of await cut.copyPages(source, [...Array(count).keys()])) cut.addPage(page);
  return { ...upload, filename: upload.filename.replace(/\.pdf$/, `_p1-${count}.pdf`), bytes: await cut.save() };
}

const scans = await scanCases([
  ...cfpbCases.map(
    ({ upload, e }) => [upload.filename, e, upload] as [string, { class: string; fields: Expected }, Upload],
  ),
  ...englishFilled.map(
    ([file, e]) => [file, e, pdf(`public-docs/clean/${file}`)] as [string, { class: string; fields: Expected }, Upload],
  ),
]);
await formCorpus('scans', scans);
// The same scans while every core is kept busy by another process at the readers' own priority, as a
// lender's worker is at month-end: the same fields and findings (no page illegible for want of a core).
await withCoresSaturated(() =>
  formCorpus(`scans, all ${availableParallelism()} cores saturated by other processes`, scans),
);

// Every corpus scan with its pages turned as scanner feeds and phones deliver them: the first sideways
// (a quarter turn clockwise), the next upside down, the next a quarter turn the other way, the next upright;
// held against the upright scan's fields and findings (blank forms: no values).
const turned = async (upload: Upload): Promise<Upload> => ({
  ...upload,
  filename: upload.filename.replace(/\.pdf$/, '_turned.pdf'),
  bytes: await imagePdf(await turnedPages(upload.bytes, [1, 2, 3, 0]), TURNED_DPI),
});
const asCase = ([file, e]: [string, { class: string; fields: Expected }]) =>
  [file, e, pdf(`public-docs/clean/${file}`)] as [string, { class: string; fields: Expected }, Upload];
await formCorpus(
  'scans turned sideways and upside down',
  await Promise.all(
    (
      await scanCases([
        ...cfpbCases.map(
          ({ upload, e }) => [upload.filename, e, upload] as [string, { class: string; fields: Expected }, Upload],
        ),
        ...englishFilled.map(asCase),
        ...spanishFilled.map(asCase),
      ])
    ).map(async (c) => ({ ...c, uploads: [await turned(c.uploads[0]!)] })),
  ),
);

await blankCorpus(
  'blank forms (text layer and scan)',
  [
    ['le_blank_h24.pdf', 'loan_estimate'],
    ['cd_blank_h25a.pdf', 'closing_disclosure'],
    ['irs_w2.pdf', 'w2'],
    ['urar_form_1004_epa.pdf', 'appraisal'],
    ['hud1_explainer_sample.pdf', 'settlement_statement'],
  ].flatMap(([file, cls]) => [
    { upload: pdf(`public-docs/clean/${file}`), cls: cls! },
    { upload: scanOf(file!), cls: cls! },
  ]),
);

await blankCorpus(
  'blank forms, scans turned',
  await Promise.all(
    [
      ['le_blank_h24.pdf', 'loan_estimate'],
      ['cd_blank_h25a.pdf', 'closing_disclosure'],
      ['irs_w2.pdf', 'w2'],
      ['urar_form_1004_epa.pdf', 'appraisal'],
      ['hud1_explainer_sample.pdf', 'settlement_statement'],
    ].map(async ([file, cls]) => ({ upload: await turned(scanOf(file!)), cls: cls! })),
  ),
);

await formCorpus('Spanish (H-28)', [
  ...spanishFilled.map(([file, e]) => ({
    uploads: [pdf(`public-docs/clean/${file}`)],
    cls: e.class,
    expected: e.fields,
  })),
  ...(await scanCases(
    spanishFilled.map(
      ([file, e]) =>
        [file, e, pdf(`public-docs/clean/${file}`)] as [string, { class: string; fields: Expected }, Upload],
    ),
  )),
]);

const urlaPdf = (filename: string, bytes: Uint8Array): Upload => ({ filename, mime: 'application/pdf', bytes });
const fillableUrlas: UrlaCase[] = [
  {
    upload: urlaPdf('urla_1003_sample_filled.pdf', OFFICIAL_URLA_SAMPLE),
    expected: OFFICIAL_URLA_SAMPLE_EXPECTED,
    employments: OFFICIAL_URLA_SAMPLE_EMPLOYMENTS,
  },
  ...(await Promise.all(
    OFFICIAL_URLA_COPIES.map(async (copy, i) => ({
      upload: urlaPdf(`urla_1003_copy_${i + 1}.pdf`, await fillOfficialUrla(copy.text, copy.checked)),
      expected: copy.expected,
      employments: copy.employments,
    })),
  )),
];
await urlaCorpus('official URLA (Form 1003), fields', [
  { upload: urlaPdf('urla_1003_blank.pdf', OFFICIAL_URLA_BLANK) },
  ...fillableUrlas,
  { upload: urlaPdf('urla_1003_pypdf_filled.pdf', PYPDF_COPIES.filled.bytes), ...PYPDF_COPIES.filled },
]);
// The same copies with no fields left: flattened by pdf-lib or pypdf (the pypdf one contradicts itself).
const flattenedUrlas: UrlaCase[] = [
  ...(await Promise.all(
    fillableUrlas.map(async (c) => ({
      ...c,
      upload: {
        ...c.upload,
        filename: c.upload.filename.replace(/\.pdf$/, '_flattened.pdf'),
        bytes: await flattened(c.upload.bytes),
      },
    })),
  )),
  {
    upload: urlaPdf('urla_1003_pypdf_flattened.pdf', PYPDF_COPIES.flattenedContradictory.bytes),
    ...PYPDF_COPIES.flattenedContradictory,
  },
];
await urlaCorpus('official URLA (Form 1003), flattened', [
  { upload: urlaPdf('urla_1003_blank_flattened.pdf', await flattened(OFFICIAL_URLA_BLANK)) },
  ...flattenedUrlas,
]);
// Printed and scanned at 300 dpi: read by OCR and placed on the form by the blank's captions.
await urlaCorpus(
  `official URLA (Form 1003), printed and scanned (${DEGRADATIONS[0]!.name})`,
  flattenedUrlas,
  await Promise.all(
    flattenedUrlas.map(async (c) => [
      { ...c.upload, bytes: await imagePdf(await degradedPages(c.upload.bytes, DEGRADATIONS[0]!)) },
    ]),
  ),
);

await bundleCorpus('whole loan files', [
  // The instruction-injection page is data: nothing read from it, no finding citing its figures.
  { file: 'loan_file_02_injection', findings: (a) => !a.findings.some((f) => /\$1\.00|\$99,999/.test(f.summary)) },
  { file: 'loan_file_03_income_conflict', findings: (a) => a.findings.some((f) => f.code === 'INC-004') },
]);

// Whole loan files assembled from every corpus document in seeded orders, some behind a fax cover sheet:
// ten of the text documents, two of the scans.
await assembledCorpus('assembled loan files (text layer)', [
  ...(await assembleBundles(corpusDocuments('text'), 5, 1)),
  ...(await assembleBundles(corpusDocuments('text'), 5, 2)),
]);
await assembledCorpus('assembled loan files (scans)', await assembleBundles(corpusDocuments('scan'), 2, 3));
// Long documents with what they append (an appraisal's addenda, photo pages, maps and invoice; a Note's riders
// and allonge; a Deed of Trust's exhibit and riders), alone and between other forms.
await assembledCorpus(
  'long documents with their addenda and riders',
  await Promise.all(
    [[appraisalWithAddenda()], [noteWithRiders(), deedWithExhibitsAndRiders()], loanFileWithLongDocuments()].map(
      async (parts, i) => ({ name: `long documents ${i + 1}`, ...(await longBundle(parts)) }),
    ),
  ),
);

for (const d of DEGRADATIONS) {
  await formCorpus(
    `generated: ${d.name}`,
    await Promise.all(
      cfpbCases.map(async ({ upload, e }) => ({
        uploads: [
          {
            filename: upload.filename,
            mime: 'application/pdf',
            bytes: await imagePdf(await degradedPages(upload.bytes, d)),
          },
        ],
        cls: e.class,
        expected: e.fields,
        twin: await twinFindings(upload),
      })),
    ),
  );
}

// One JPEG per page, each its own file: the form's pages are joined by their "Page x of y" footers.
const perPage = DEGRADATIONS[1]!;
await formCorpus(
  `generated: one image file per page (${perPage.name})`,
  await Promise.all(
    cfpbCases.map(async ({ upload, e }) => {
      // The form's own pages, without the CFPB cover sheet: what a lender sends.
      const count = await pagesOf(upload);
      const jpegs = await degradedPages(
        upload.bytes,
        perPage,
        Array.from({ length: count - 1 }, (_, i) => i + 2),
      );
      // Field pages count within each file; the tables' page numbers are the PDF's: compare values only.
      const expected = Object.fromEntries(Object.entries(e.fields).map(([k, [v]]) => [k, [v, 1]])) as Expected;
      return {
        uploads: jpegs.map((bytes, i) => ({
          filename: `${upload.filename.replace(/\.pdf$/, '')}-p${i + 1}.jpg`,
          mime: 'image/jpeg',
          bytes,
        })),
        cls: e.class,
        expected,
      };
    }),
  ),
);

// OCR before and after its preprocessing (paper.ts flattens unevenly lit paper; tesseract deskews), side by
// side on the same pages: the shadowed photos, then the corpus's scans.
const shaded = DEGRADATIONS.find((d) => d.shade)!;
const shadedCases = await Promise.all(
  cfpbCases.map(async ({ upload, e }) => ({
    uploads: [
      {
        filename: upload.filename,
        mime: 'application/pdf',
        bytes: await imagePdf(await degradedPages(upload.bytes, shaded)),
      },
    ],
    cls: e.class,
    expected: e.fields,
  })),
);
const scanned = await scanCases(
  englishFilled.map(
    ([file, e]) => [file, e, pdf(`public-docs/clean/${file}`)] as [string, { class: string; fields: Expected }, Upload],
  ),
);
for (const on of [false, true]) {
  setPaperFlattening(on);
  const label = on ? 'after: paper flattened' : 'before: OCR as tesseract binarises alone';
  await formCorpus(`OCR ${label}, shadowed photos`, shadedCases);
  await formCorpus(
    `OCR ${label}, corpus scans`,
    scanned.map((c) => ({ ...c, twin: undefined })),
  );
}

await terminateOcr();
await terminatePdfThreads();

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((a * 100) / b).toFixed(1)}%`);
console.log(`OCR workers: ${workers}\n`);
console.log(
  '| corpus | files | pages | fields exact / expected | values read from blanks or not expected | ' +
    'pages split right | findings as expected | s/page |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.corpus} | ${r.files} | ${r.pages} | ` +
      `${r.expected === 0 ? '—' : `${r.exact}/${r.expected} (${pct(r.exact, r.expected)})`} | ${r.spurious} | ` +
      `${r.splitRight}/${r.pages} | ` +
      `${r.findingsChecked === 0 ? '—' : `${r.findingsAsExpected}/${r.findingsChecked}`} | ` +
      `${(r.seconds / Math.max(1, r.pages)).toFixed(2)} |`,
  );
}
