// `npm run bench:qc`: pages per second of the full QC analysis (read, OCR where needed, split, classify,
// extract, every rule) against the floor the plain tools set on the same pages and cores, in alternating
// rounds: a 300-page package of text-layer PDFs against poppler's `pdftotext`, and 30 scanned pages
// (image-only PDFs, one a file) against the tesseract CLI on the same pages as the analysis hands them to
// OCR. Both sides use two processes or threads at a time, as the worker reads two files and OCRs two pages
// at once. The analysis runs in this process as the worker runs it, its pdf.js threads and OCR workers
// already started (a warm-up run starts them). The packages are built from the CFPB model forms of
// test/corpus; nothing is downloaded.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { loadConfig } from '../src/config.js';
import { analyseDocuments, type DocumentToAnalyse } from '../src/qc/analyse.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { configureOcr, terminateOcr } from '../src/qc/reading/ocr.js';
import { configurePdfThreads, readPdf, terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';
import { RENDER_DPI } from '../src/qc/reading/page.js';
import { processTreeCpu } from '../scripts/stack/throwaway.js';
import { limited, pageImages, pagePngs, tesseractText } from './plain/tesseract.js';
import { pdftotextSeconds, requirePdftotext } from './plain/pdftotext.js';
import { alternate, median, report } from './side-by-side.js';

const corpus = new URL('../test/corpus/cfpb/', import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Files or pages at once on either side: the worker's two pdf.js threads, OCR_WORKERS tesseract runs. */
const AT_ONCE = 2;

interface PackageFile {
  path: string;
  pages: number;
}

async function textPackage(dir: string, targetPages: number): Promise<PackageFile[]> {
  const samples = (await readdir(corpus)).filter((f) => f.endsWith('.pdf')).sort();
  const files: PackageFile[] = [];
  let pages = 0;
  for (let copy = 0; pages < targetPages; copy++) {
    for (const name of samples) {
      if (pages >= targetPages) break;
      const bytes = await readFile(new URL(name, corpus));
      const count = (await PDFDocument.load(bytes)).getPageCount();
      const path = join(dir, `${copy}-${name}`);
      await writeFile(path, bytes);
      files.push({ path, pages: count });
      pages += count;
    }
  }
  return files;
}

/** Scanned pages: the forms' pages rendered at 200 dpi, each wrapped alone in an image-only PDF. */
async function scannedPackage(dir: string, targetPages: number): Promise<PackageFile[]> {
  const files: PackageFile[] = [];
  for await (const { name, png } of scannedPages(targetPages)) {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawImage(await doc.embedPng(png), LETTER);
    const path = join(dir, name);
    await writeFile(path, await doc.save());
    files.push({ path, pages: 1 });
  }
  return files;
}

const LETTER = { x: 0, y: 0, width: 612, height: 792 };

async function* scannedPages(targetPages: number): AsyncGenerator<{ name: string; png: Uint8Array }> {
  const samples = (await readdir(corpus)).filter((f) => f.endsWith('.pdf')).sort();
  let made = 0;
  for (let copy = 0; ; copy++) {
    for (const name of samples) {
      const bytes = new Uint8Array(await readFile(new URL(name, corpus)));
      const count = (await PDFDocument.load(bytes)).getPageCount();
      const numbers = Array.from({ length: Math.min(count, targetPages - made) }, (_, i) => i + 1);
      const pngs = await pagePngs(bytes, numbers, 200);
      for (const [i, png] of pngs.entries()) {
        made++;
        yield { name: `scan-${copy}-${i + 1}-${name}`, png };
      }
      if (made >= targetPages) return;
    }
  }
}

interface Analysis {
  seconds: number;
  findings: number;
  /** CPU-seconds of this process (every thread) with its process helper, and of their tesseract runs. */
  cpu: { own: number; tesseract: number };
}

async function analyse(files: readonly PackageFile[], concurrency: number): Promise<Analysis> {
  const docs: DocumentToAnalyse[] = files.map((f, i) => ({
    id: String(i),
    filename: f.path.split('/').pop()!,
    mime: 'application/pdf',
    objectKey: f.path,
  }));
  const before = await processTreeCpu(process.pid);
  const start = performance.now();
  const result = await analyseDocuments(
    docs,
    (key) => readFile(key),
    () => {},
    { ocr: tesseractOcr, concurrency },
  );
  const seconds = (performance.now() - start) / 1000;
  const after = await processTreeCpu(process.pid);
  return {
    seconds,
    findings: result.findings.length,
    cpu: { own: after.own - before.own, tesseract: after.children - before.children },
  };
}

/** Seconds the reading alone takes (pdf.js: text, where words are drawn, form fields), AT_ONCE files at a time. */
async function readingAlone(files: readonly PackageFile[]): Promise<number> {
  const start = performance.now();
  await limited(
    AT_ONCE,
    files.map((f) => async () => {
      const reading = await readPdf(new Uint8Array(await readFile(f.path)));
      if (!reading.readable) throw new Error(`${f.path}: ${reading.reason}`);
    }),
  );
  return (performance.now() - start) / 1000;
}

const pages = (files: readonly PackageFile[]) => files.reduce((s, f) => s + f.pages, 0);
const list = (xs: readonly number[], digits = 2) => xs.map((x) => x.toFixed(digits)).join(', ');

async function textComparison(files: readonly PackageFile[]): Promise<void> {
  const n = pages(files);
  const runs: Analysis[] = [];
  const reading: number[] = [];
  const sides = await alternate(
    ROUNDS,
    {
      label: `the full analysis, ${AT_ONCE} files at a time`,
      measure: async () => {
        const r = await analyse(files, AT_ONCE);
        runs.push(r);
        reading.push(n / (await readingAlone(files)));
        return n / r.seconds;
      },
    },
    {
      label: `\`pdftotext -layout\`, ${AT_ONCE} processes`,
      measure: async () =>
        n /
        (await pdftotextSeconds(
          files.map((f) => f.path),
          AT_ONCE,
        )),
    },
  );
  const plainRate = median(sides.plain.samples.map((s) => s.value));
  report({
    what: `${n} text-layer pages`,
    unit: 'pages/s',
    higherIsBetter: true,
    ...sides,
    target: 0.5,
    notes: [
      `${files.length} PDFs (the 4 CFPB forms over and over); ${runs[0]!.findings} findings`,
      `the reading alone (text, where each word is drawn, form fields; no split, extraction or rule): ` +
        `${list(reading, 1)} pages/s, ${(median(reading) / plainRate).toFixed(2)} × pdftotext`,
      `the analysis's CPU-seconds a page: ${list(
        runs.map((r) => r.cpu.own / n),
        3,
      )}`,
    ],
  });
}

async function scannedComparison(files: readonly PackageFile[], images: readonly string[]): Promise<void> {
  const n = pages(files);
  const runs: Analysis[] = [];
  const cli: number[] = [];
  const sides = await alternate(
    ROUNDS,
    {
      label: `the full analysis, ${AT_ONCE} OCR workers`,
      measure: async () => {
        const r = await analyse(files, AT_ONCE);
        runs.push(r);
        return n / r.seconds;
      },
    },
    {
      label: `the tesseract CLI on the same ${RENDER_DPI}-dpi pages, ${AT_ONCE} processes`,
      measure: async () => {
        const cpu0 = (await processTreeCpu(process.pid)).children;
        const start = performance.now();
        await limited(
          AT_ONCE,
          images.map((path) => () => tesseractText(path, RENDER_DPI)),
        );
        const seconds = (performance.now() - start) / 1000;
        cli.push((await processTreeCpu(process.pid)).children - cpu0);
        return n / seconds;
      },
    },
  );
  report({
    what: `${n} scanned pages`,
    unit: 'pages/s',
    higherIsBetter: true,
    ...sides,
    target: 0.85,
    notes: [
      `${files.length} image-only PDFs of a page each, the CFPB forms' pages drawn at 200 dpi; ` +
        `${runs[0]!.findings} findings`,
      `CPU-seconds a page: the analysis's tesseract runs ${list(runs.map((r) => r.cpu.tesseract / n))}, the ` +
        `CLI's ${list(cli.map((c) => c / n))}; the analysis's own processes (with its process helper) besides them ` +
        `${list(runs.map((r) => r.cpu.own / n))}`,
    ],
  });
}

async function main() {
  await requirePdftotext();
  const { ocrWorkers } = loadConfig().qc;
  if (ocrWorkers !== AT_ONCE) throw new Error(`run with OCR_WORKERS=${AT_ONCE} (the plain side runs ${AT_ONCE})`);
  configureOcr({ workers: ocrWorkers });
  // This process holds the packages and every result besides the readers, so the worker's memory limit
  // would stop its pages: it is lifted here (bench:worker-memory measures the worker under it).
  configurePdfThreads({ memoryLimitMb: 16_384 });
  const dir = await mkdtemp(join(tmpdir(), 'qc-bench-'));
  try {
    const text = await textPackage(dir, 300);
    const scanned = await scannedPackage(dir, 30);
    const images = await pageImages(dir, scanned);
    // A worker process keeps its pdf.js threads and OCR workers between reviews: start them before timing.
    await analyse([text[0]!, scanned[0]!], ocrWorkers);
    await textComparison(text);
    await scannedComparison(scanned, images);
  } finally {
    await Promise.all([terminateOcr(), terminatePdfThreads()]);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
