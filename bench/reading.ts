// `npm run bench:reading`: how well and how fast the QC engine reads real loan documents, per corpus of
// test/corpus (CFPB clean samples, their scans, blank forms, Spanish forms, two whole loan files) and of
// degradations made here from the CFPB samples (rendered at 150–300 dpi, turned, sheared, speckled,
// JPEG-compressed; as image-only PDFs and as one image file per page). For each: fields read exactly as
// printed against those expected (test/corpus/expected.ts), values read from blank forms (want none),
// pages split into the right document, findings as expected (a scan's are its clean twin's), seconds per
// page. OCR runs OCR_WORKERS workers (default 2), as the worker process does.
import { existsSync, readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { analyseDocuments, type Analysis, type DocumentToAnalyse } from '../src/qc/analyse.js';
import type { LoanDocument } from '../src/qc/fields.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { configureOcr, terminateOcr } from '../src/qc/reading/ocr.js';
import { setPaperFlattening } from '../src/qc/reading/images.js';
import { terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';
import { CFPB, FILLED, type Expected } from '../test/corpus/expected.js';
import { DEGRADATIONS, degradedPages, imagePdf } from '../test/support/degrade.js';

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
  const row: Row = {
    corpus: name,
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
  for (const c of cases) {
    const started = performance.now();
    const analysis = await analyse(c.uploads);
    row.seconds += (performance.now() - started) / 1000;
    row.files += c.uploads.length;
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

/** Blank forms: pages classified as the form, and not one value read. */
async function blankCorpus(name: string, cases: { upload: Upload; cls: string }[]): Promise<void> {
  const row: Row = {
    corpus: name,
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
  for (const c of cases) {
    const started = performance.now();
    const analysis = await analyse([c.upload]);
    row.seconds += (performance.now() - started) / 1000;
    row.files++;
    row.pages += pageCount(analysis);
    row.spurious += Object.keys(fieldsOf(analysis.loan.documents)).length;
    row.splitRight += analysis.loan.documents
      .filter((d) => d.documentClass === c.cls)
      .reduce((n, d) => n + d.pages.length, 0);
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

interface PageLabel {
  page: number;
  source: string;
}

async function bundleCorpus(
  name: string,
  bundles: { file: string; findings: (a: Analysis) => boolean }[],
): Promise<void> {
  const row: Row = {
    corpus: name,
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

await formCorpus(
  'scans',
  await scanCases([
    ...cfpbCases.map(
      ({ upload, e }) => [upload.filename, e, upload] as [string, { class: string; fields: Expected }, Upload],
    ),
    ...englishFilled.map(
      ([file, e]) =>
        [file, e, pdf(`public-docs/clean/${file}`)] as [string, { class: string; fields: Expected }, Upload],
    ),
  ]),
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

await bundleCorpus('whole loan files', [
  // The instruction-injection page is data: nothing read from it, no finding citing its figures.
  { file: 'loan_file_02_injection', findings: (a) => !a.findings.some((f) => /\$1\.00|\$99,999/.test(f.summary)) },
  { file: 'loan_file_03_income_conflict', findings: (a) => a.findings.some((f) => f.code === 'INC-004') },
]);

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
