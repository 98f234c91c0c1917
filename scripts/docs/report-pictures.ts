// `npm run docs:pictures`: the README's pictures of the report. The QC engine analyses the CFPB sample
// Loan Estimate and Closing Disclosure of test/corpus (as a live review would), the report PDF of that
// analysis is rendered as a release renders it (fixed ids and time, so the pictures change only with the
// report), and its page 1 and the page of the first finding that cites evidence are drawn to docs/images/.
import { readFile, writeFile } from 'node:fs/promises';
import { analyseDocuments } from '../../src/qc/analyse.js';
import { renderPdfPage } from '../../src/qc/reading/render.js';
import { evidencePictures, openPageSource } from '../../src/report/evidence-pictures.js';
import { particularsOf } from '../../src/report/particulars.js';
import { renderReport } from '../../src/report/render.js';
import { releaseContent } from '../../src/reviews/report.js';
import { pagesText } from '../../test/support/pdf-text.js';

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
    sheet: { number: 1, particulars: particularsOf(analysis), previous: null, decisions: [], standing: [] },
    pictures: await evidencePictures(analysis.findings, async (name) =>
      openPageSource(new Uint8Array(await readFile(new URL(name, corpus))), 'application/pdf'),
    ),
  },
  'a picture for the documentation, no working document',
);
const withEvidence = analysis.findings.find((f) => f.evidence.length > 0);
if (!withEvidence)
  throw new Error('no finding of the CFPB samples cites evidence: nothing to draw as a finding section');
const pages = await pagesText(report);
// The finding's section: the page after the findings table whose text starts that section.
const sectionPage =
  pages.findIndex((text, i) => i > 1 && text.includes(`${withEvidence.key} ${withEvidence.title}`)) + 1;
if (sectionPage === 0) throw new Error(`the section of ${withEvidence.key} was not found in the report`);
for (const [name, page] of [
  ['report-page-1.png', 1],
  ['report-finding.png', sectionPage],
] as const) {
  const out = new URL(`../../docs/images/${name}`, import.meta.url);
  await writeFile(out, await renderPdfPage(report, page, 80));
  console.log(
    `${out.pathname}: page ${page} of the report on ${files.join(' and ')} (${analysis.findings.length} findings)`,
  );
}
process.exit(0);
