// `npm run bench:report`: rendering a 100-finding report (each finding with three evidence values, long
// summaries, a regulation; page 1 with every particular and 40 documents) as a release renders it.
// Prints the time of each of 7 renders (the first includes loading the fonts and pdf-lib) and the size.
// Targets (issue 16): under 2 s and under 5 MB.
import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { SEVERITIES } from '../src/qc/catalog.js';
import type { Finding } from '../src/qc/finding.js';
import { renderReport } from '../src/report/render.js';
import { releaseContent } from '../src/reviews/report.js';

const findings: Finding[] = Array.from({ length: 100 }, (_, i) => ({
  key: `DOC-0${10 + (i % 80)}:document_${i}`,
  code: `DOC-0${10 + (i % 80)}`,
  severity: SEVERITIES[i % SEVERITIES.length]!,
  category: 'documentation',
  title: `A finding of the benchmark, number ${i}`,
  summary: `The Closing Disclosure (package-${i}.pdf, p.${(i % 9) + 1}) prints $162,000.00 where the Note (note.pdf, p.1) prints $161,000.00; dated 2013-04-15. `.repeat(2),
  evidence: [
    { document: `package-${i}.pdf`, page: (i % 9) + 1, field: 'loan_amount', value: '$162,000.00' },
    { document: 'note.pdf', page: 1, field: 'principal', value: '$161,000.00' },
    { document: `package-${i}.pdf`, page: 1, field: 'date_issued', value: '2013-04-15' },
  ],
  regulation: '12 CFR 1026.19(f)(1)(ii)',
}));
const glance = ['Borrower', 'Property', 'Loan amount', 'Interest rate', 'Loan term', 'Closing date', 'Lender'].map((label, i) => ({ label, value: `value ${i}`, document: 'cd.pdf', page: 1 }));
const documents = Array.from({ length: 40 }, (_, i) => ({ file: `document-${i}.pdf`, found: ['Closing Disclosure', 'Note'], pages: 12, unreadable: i % 10 === 0 ? 'the file is encrypted' : null }));

const times: number[] = [];
let size = 0;
let pages = 0;
for (let round = 0; round < 7; round++) {
  const started = performance.now();
  const bytes = await renderReport(
    {
      reviewId: randomUUID(),
      releaseId: randomUUID(),
      referenceId: 'LN-BENCH',
      sandbox: false,
      ...releaseContent(findings),
      generatedAt: new Date(),
      sheet: { number: 2, particulars: { glance, documents }, previous: { number: 1, generatedAt: new Date(), findings: findings.slice(10) }, decisions: [], standing: [] },
    },
    'a-server-secret-of-at-least-32-characters',
  );
  times.push(performance.now() - started);
  size = bytes.length;
  pages = (await PDFDocument.load(bytes)).getPageCount();
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`100 findings: ${pages} pages, ${(size / 1024 / 1024).toFixed(2)} MiB`);
console.log(`render times (ms): ${times.map((t) => Math.round(t)).join(', ')}; min ${Math.round(sorted[0]!)}, median ${Math.round(sorted[3]!)}, max ${Math.round(sorted[6]!)}`);
process.exit(0);
