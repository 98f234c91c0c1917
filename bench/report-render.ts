// `npm run bench:report`: a 100-finding report as a release renders it: the pictures of its evidence cut
// from the cited pages, then the PDF (each finding with three evidence values, long summaries, a
// regulation; page 1 with every particular and 40 documents). The evidence is real: the values the reader
// located on the CFPB sample Loan Estimate and Closing Disclosure (text layers) and on a scan of the
// Closing Disclosure (200 dpi, turned 1.5°, read by OCR once before timing), so pictures come from 13
// pages of both kinds. The files are read from disk (the activity reads them from MinIO).
// Prints the time of each of 7 rounds (pictures + render; the first includes loading pdf.js, the fonts and
// pdf-lib), the pictures' share, and the size. Targets: under 2 s and under 5 MB.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { SEVERITIES } from '../src/qc/catalog.js';
import type { Evidence, Finding } from '../src/qc/finding.js';
import { analyseFile } from '../src/qc/logical-documents.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { terminateOcr } from '../src/qc/reading/ocr.js';
import { evidencePictures, openPageSource } from '../src/report/evidence-pictures.js';
import { renderReport } from '../src/report/render.js';
import { releaseContent } from '../src/reviews/report.js';
import { DEGRADATIONS, degradedPages, imagePdf } from '../test/support/degrade.js';

const corpus = (name: string) =>
  readFile(new URL(`../test/corpus/cfpb/${name}`, import.meta.url)).then((b) => new Uint8Array(b));
const files = new Map<string, Uint8Array>([
  ['le.pdf', await corpus('le_sample_fixed_rate_h24b.pdf')],
  ['cd.pdf', await corpus('cd_sample_fixed_rate_h25b.pdf')],
]);
files.set('cd-scan.pdf', await imagePdf(await degradedPages(files.get('cd.pdf')!, DEGRADATIONS[1]!)));

// Every located value of the three files, as rules cite them.
const located: Evidence[] = [];
for (const [name, bytes] of files) {
  const { documents } = await analyseFile(name, 'application/pdf', bytes, tesseractOcr);
  for (const doc of documents) {
    for (const [field, v] of Object.entries(doc.fields as Record<string, unknown>)) {
      const f = v as { value?: unknown; page?: number; box?: Evidence['box'] };
      if (f?.box && f.page !== undefined)
        located.push({ document: name, page: f.page, field, value: String(f.value), box: f.box });
    }
  }
}
await terminateOcr();
if (located.length < 30)
  throw new Error(`only ${located.length} values were located in the samples: the benchmark needs their pictures`);

const findings: Finding[] = Array.from({ length: 100 }, (_, i) => ({
  key: `DOC-0${10 + (i % 80)}:document_${i}`,
  code: `DOC-0${10 + (i % 80)}`,
  severity: SEVERITIES[i % SEVERITIES.length]!,
  category: 'documentation',
  title: `A finding of the benchmark, number ${i}`,
  summary: (
    `The Closing Disclosure (package-${i}.pdf, p.${(i % 9) + 1}) prints $162,000.00 where the Note ` +
    `(note.pdf, p.1) prints $161,000.00; dated 2013-04-15. `
  ).repeat(2),
  evidence: [
    located[(3 * i) % located.length]!,
    located[(3 * i + 1) % located.length]!,
    located[(3 * i + 2) % located.length]!,
  ],
  regulation: '12 CFR 1026.19(f)(1)(ii)',
}));
const glance = ['Borrower', 'Property', 'Loan amount', 'Interest rate', 'Loan term', 'Closing date', 'Lender'].map(
  (label, i) => ({ label, value: `value ${i}`, document: 'cd.pdf', page: 1 }),
);
const documents = Array.from({ length: 40 }, (_, i) => ({
  file: `document-${i}.pdf`,
  found: ['Closing Disclosure', 'Note'],
  pages: 12,
  unreadable: i % 10 === 0 ? 'the file is encrypted' : null,
}));
const pagesCited = new Set(located.map((e) => `${e.document}:${e.page}`)).size;

const totals: number[] = [];
const picturing: number[] = [];
let size = 0;
let pages = 0;
let pictureCount = 0;
for (let round = 0; round < 7; round++) {
  const started = performance.now();
  const pictures = await evidencePictures(findings, async (document) =>
    openPageSource(files.get(document)!, 'application/pdf'),
  );
  picturing.push(performance.now() - started);
  const bytes = await renderReport(
    {
      reviewId: randomUUID(),
      releaseId: randomUUID(),
      referenceId: 'LN-BENCH',
      sandbox: false,
      ...releaseContent(findings),
      generatedAt: new Date(),
      sheet: {
        number: 2,
        particulars: { glance, documents },
        previous: { number: 1, generatedAt: new Date(), findings: findings.slice(10) },
        decisions: [],
        standing: [],
      },
      pictures,
    },
    'a-server-secret-of-at-least-32-characters',
  );
  totals.push(performance.now() - started);
  size = bytes.length;
  pictureCount = pictures.size;
  pages = (await PDFDocument.load(bytes)).getPageCount();
}
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return (
    `${times.map((t) => Math.round(t)).join(', ')}; min ${Math.round(sorted[0]!)}, median ` +
    `${Math.round(sorted[3]!)}, max ${Math.round(sorted[6]!)}`
  );
};
console.log(
  `100 findings, 300 evidence values: ${pictureCount} distinct pictures from ${pagesCited} pages; ` +
    `${pages} pages, ${(size / 1024 / 1024).toFixed(2)} MiB`,
);
console.log(`pictures + render (ms): ${summary(totals)}`);
console.log(`of which pictures (ms): ${summary(picturing)}`);
process.exit(0);
