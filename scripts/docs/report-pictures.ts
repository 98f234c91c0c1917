// `npm run docs:pictures`: the README's picture of the report. The QC engine analyses the CFPB sample
// Loan Estimate and Closing Disclosure of test/corpus (as a live review would), the report PDF of that
// analysis is rendered as a release renders it (fixed ids and time, so the picture changes only with the
// report), and its first page is drawn to docs/images/.
import { readFile, writeFile } from 'node:fs/promises';
import { analyseDocuments } from '../../src/qc/analyse.js';
import { renderPdfPage } from '../../src/qc/reading/render.js';
import { renderReport } from '../../src/report/render.js';
import { releaseContent } from '../../src/reviews/report.js';

const corpus = new URL('../../test/corpus/cfpb/', import.meta.url);
const files = ['le_sample_fixed_rate_h24b.pdf', 'cd_sample_fixed_rate_h25b.pdf'];

const analysis = await analyseDocuments(
  files.map((filename) => ({ id: filename, filename, mime: 'application/pdf', objectKey: filename })),
  async (name) => new Uint8Array(await readFile(new URL(name, corpus))),
);
const report = await renderReport(
  {
    reviewId: '6d0c41b2-8f3e-4a51-9c7d-2e5b8a9f1c30',
    releaseId: '0b7e9d14-3c2a-4f86-a1d5-7e4c9b2f6a81',
    referenceId: 'LN-2026-000123',
    sandbox: false,
    ...releaseContent(analysis.findings),
    generatedAt: new Date('2026-11-23T08:00:00Z'),
  },
  'a picture for the documentation, no working document',
);
const out = new URL('../../docs/images/report-page-1.png', import.meta.url);
await writeFile(out, await renderPdfPage(report, 1, 80));
console.log(`${out.pathname}: page 1 of the report on ${files.join(' and ')} (${analysis.findings.length} findings)`);
process.exit(0);
