// `npm run bench:loan-file`: a real loan file end to end, what a lender pays for. A 150-page package (20
// text-layer PDFs of about 7 pages, each a run of the public forms of test/corpus one after another, and
// 10 scanned pages, real scans of test/corpus/public-docs/scans) created by multipart on a live key and
// polled until completed: wall time from the request, and the CPU-seconds of the two worker processes
// (with the tesseract runs of the analysis worker).
// The plain alternative is the sum of the floors on the same pages and cores: poppler's `pdftotext` over
// the text-layer files and the tesseract CLI over the scanned pages (rendered beforehand at the
// service's OCR resolution, untimed), two processes at a time as the worker runs two. Target: created →
// completed ≤ 1.5 × that sum. Alternating rounds on one stack, after a warm-up review.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { RENDER_DPI } from '../src/qc/reading/page.js';
import { createSql } from '../src/db/client.js';
import { processTreeCpu, withThrowawayStack, workersCpuSeconds } from '../scripts/stack/throwaway.js';
import { pdftotextSeconds, requirePdftotext } from './plain/pdftotext.js';
import { limited, pageImages, tesseractText } from './plain/tesseract.js';
import { allCompleted } from './reviews-completed.js';
import { alternate, report } from './side-by-side.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PUBLIC = new URL('../test/corpus/public-docs/', import.meta.url);
const CFPB = new URL('../test/corpus/cfpb/', import.meta.url);
const TEXT_FILES = 20;
const PAGES_PER_TEXT_FILE = 7;
/** Real scans, 10 pages in all. */
const SCANS = [
  'paystub_lindqvist_scan.pdf',
  'paystub_okafor_scan.pdf',
  'resume_alvarez_scan.pdf',
  'hud1_explainer_sample_scan.pdf',
  'irs_w2_scan.pdf',
  'le_sample_balloon_h24e_scan.pdf',
];
/** The floors run as many processes at once as the worker reads pages at once (2 pdf.js threads, 2 OCR workers). */
const PROCESSES = 2;
const COMPLETED_WITHIN_MS = 15 * 60_000;

interface LoanFile {
  name: string;
  path: string;
  pages: number;
  scanned: boolean;
}

/** The public forms with a text layer, in a fixed order (the appraisal is encrypted: pdf-lib cannot copy its pages). */
function textSources(): URL[] {
  const names = [
    'clean/cd_blank_h25a.pdf',
    'bundles/loan_file_02_injection.pdf',
    'clean/irs_w2.pdf',
    'clean/le_blank_h24.pdf',
    'bundles/loan_file_03_income_conflict.pdf',
    'clean/cd_sample_fixed_spanish_h28g.pdf',
    'clean/le_sample_arm_spanish_h28b.pdf',
    'clean/cd_page2_cost_modifications_h25h.pdf',
    'clean/cd_seller_illustration_h25hi.pdf',
    'urla-official/urla_1003_sample_filled.pdf',
    'clean/le_sample_balloon_h24e.pdf',
    'clean/le_sample_neg_am_h24f.pdf',
    'clean/paystub_lindqvist.pdf',
    'clean/paystub_okafor.pdf',
    'clean/hud1_explainer_sample.pdf',
  ];
  return [
    ...['cd_sample_fixed_rate_h25b.pdf', 'le_sample_fixed_rate_h24b.pdf', 'le_sample_arm_interest_only_h24c.pdf'].map(
      (n) => new URL(n, CFPB),
    ),
    ...names.map((n) => new URL(n, PUBLIC)),
  ];
}

/**
 * The package: text-layer file i is the forms from source i on, one after another, until it has about
 * PAGES_PER_TEXT_FILE pages (a loan file of several documents, as lenders send them; each file's bytes
 * its own); then the scans as they are.
 */
async function loanPackage(dir: string): Promise<LoanFile[]> {
  const sources = await Promise.all(textSources().map(async (u) => PDFDocument.load(await readFile(u))));
  const files: LoanFile[] = [];
  for (let i = 0; i < TEXT_FILES; i++) {
    // Fixed dates: the same package byte for byte on every run.
    const doc = await PDFDocument.create({ updateMetadata: false });
    // Past the last source, the runs begin a page later: no two files alike (a repeat would be dropped).
    let skip = Math.floor(i / sources.length);
    for (let s = i; doc.getPageCount() < PAGES_PER_TEXT_FILE; s++, skip = 0) {
      const source = sources[s % sources.length]!;
      const first = Math.min(skip, source.getPageCount() - 1);
      const wanted = Math.min(source.getPageCount() - first, PAGES_PER_TEXT_FILE - doc.getPageCount());
      const pages = await doc.copyPages(
        source,
        Array.from({ length: wanted }, (_, n) => first + n),
      );
      for (const p of pages) doc.addPage(p);
    }
    const name = `loan-file-part-${String(i + 1).padStart(2, '0')}.pdf`;
    const path = join(dir, name);
    await writeFile(path, await doc.save());
    files.push({ name, path, pages: doc.getPageCount(), scanned: false });
  }
  for (const name of SCANS) {
    const bytes = await readFile(new URL(`scans/${name}`, PUBLIC));
    const path = join(dir, name);
    await writeFile(path, bytes);
    files.push({ name, path, pages: (await PDFDocument.load(bytes)).getPageCount(), scanned: true });
  }
  return files;
}

async function main() {
  await requirePdftotext();
  const dir = await mkdtemp(join(tmpdir(), 'loan-file-bench-'));
  try {
    const files = await loanPackage(dir);
    const textPages = files.filter((f) => !f.scanned).reduce((s, f) => s + f.pages, 0);
    const scannedPages = files.filter((f) => f.scanned).reduce((s, f) => s + f.pages, 0);
    // The scanned pages as the analysis hands them to OCR, rendered once, before any round.
    const images = await pageImages(
      dir,
      files.filter((f) => f.scanned),
    );
    const blobs = await Promise.all(files.map(async (f) => ({ name: f.name, data: await readFile(f.path) })));

    await withThrowawayStack({ durable: true, compiled: true, log: () => {} }, async ({ stack, api, key, pids }) => {
      // Completion is read in the read model the API answers from: the API polled every 0.1 s would refuse
      // the key past its rate limit.
      const sql = createSql(stack.config, { max: 1 });
      const endToEnd = async (): Promise<{ seconds: number; cpu: number }> => {
        const body = new FormData();
        for (const b of blobs) body.append('documents', new Blob([b.data], { type: 'application/pdf' }), b.name);
        const cpu0 = await workersCpuSeconds(pids);
        const t0 = performance.now();
        const res = await fetch(`${api}/reviews`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body,
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`create: ${res.status} ${text}`);
        const { review_id: id, document_count: count } = JSON.parse(text) as {
          review_id: string;
          document_count: number;
        };
        if (count !== files.length) throw new Error(`the create kept ${count} of ${files.length} files`);
        await allCompleted(sql, [id], { timeoutMs: COMPLETED_WITHIN_MS, pollMs: 100 });
        return { seconds: (performance.now() - t0) / 1000, cpu: (await workersCpuSeconds(pids)) - cpu0 };
      };

      // Warms the worker's readers and code paths, so that the first round measures what the others do.
      await endToEnd();
      const ours: number[] = [];
      const floors: { text: number; ocr: number; cpu: number }[] = [];
      const sides = await alternate(
        ROUNDS,
        {
          label: `the service: ${textPages + scannedPages} pages, created → completed`,
          measure: async () => {
            const r = await endToEnd();
            ours.push(r.cpu);
            return r.seconds;
          },
        },
        {
          label: `pdftotext + tesseract CLI on the same pages, ${PROCESSES} at a time`,
          measure: async () => {
            // The ended pdftotext and tesseract runs (started by this process's process helper).
            const cpu0 = (await processTreeCpu(process.pid)).children;
            const t0 = performance.now();
            await pdftotextSeconds(
              files.filter((f) => !f.scanned).map((f) => f.path),
              PROCESSES,
            );
            const t1 = performance.now();
            await limited(
              PROCESSES,
              images.map((path) => () => tesseractText(path, RENDER_DPI)),
            );
            const t2 = performance.now();
            floors.push({
              text: (t1 - t0) / 1000,
              ocr: (t2 - t1) / 1000,
              cpu: (await processTreeCpu(process.pid)).children - cpu0,
            });
            return (t2 - t0) / 1000;
          },
        },
      );
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
      report({
        what: '150-page loan file, created → completed',
        unit: 's',
        higherIsBetter: false,
        ...sides,
        // here ≤ 1.5 × the floors' sum: a ratio (floors ÷ here) of at least 1 ÷ 1.5.
        target: Number((1 / 1.5).toFixed(2)),
        notes: [
          `${files.length} files: ${TEXT_FILES} text-layer PDFs of ${textPages} pages and ${SCANS.length} scans of ` +
            `${scannedPages} pages, by multipart on a live key; polled until completed`,
          `the workers' CPU-seconds a review (with their tesseract runs): ${fmt(ours)}; the floors': ` +
            `${fmt(floors.map((f) => f.cpu))}`,
          `the floors: pdftotext ${fmt(floors.map((f) => f.text))} s, tesseract ${fmt(floors.map((f) => f.ocr))} s`,
        ],
      });
      await sql.end();
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
