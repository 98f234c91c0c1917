// `npm run bench:qc`: pages per second of the full QC analysis (read, OCR where needed, split, classify,
// extract, every rule) on a 300-page package of text-layer PDFs and on 30 scanned pages (image-only PDFs),
// as 30 one-page files and as one 30-page file, against poppler's `pdftotext` on the same files as the
// reference, and for the scanned pages against OCR alone (the tesseract CLI on the same pages). OCR runs
// OCR_WORKERS workers and the engine reads as many files at once, as the worker process does, whose pdf.js
// threads and OCR workers are already running (a warm-up run starts them). The packages are built from the
// CFPB model forms of test/corpus; nothing is downloaded.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { loadConfig } from '../src/config.js';
import { analyseDocuments, type DocumentToAnalyse } from '../src/qc/analyse.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { configureOcr, terminateOcr } from '../src/qc/reading/ocr.js';
import { configurePdfThreads, terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';
import { RENDER_DPI } from '../src/qc/reading/page.js';
import { renderPdfPage } from '../src/qc/reading/render.js';
import { limited, tesseractText } from './plain/tesseract.js';

const run = promisify(execFile);
const corpus = new URL('../test/corpus/cfpb/', import.meta.url);

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

/** The same scanned pages as one image-only PDF, whose pages OCR reads several at a time. */
async function scannedFile(dir: string, targetPages: number): Promise<PackageFile[]> {
  const doc = await PDFDocument.create();
  for await (const { png } of scannedPages(targetPages))
    doc.addPage([612, 792]).drawImage(await doc.embedPng(png), LETTER);
  const path = join(dir, 'scanned-package.pdf');
  await writeFile(path, await doc.save());
  return [{ path, pages: doc.getPageCount() }];
}

const LETTER = { x: 0, y: 0, width: 612, height: 792 };

async function* scannedPages(targetPages: number): AsyncGenerator<{ name: string; png: Uint8Array }> {
  const samples = (await readdir(corpus)).filter((f) => f.endsWith('.pdf')).sort();
  let made = 0;
  for (let copy = 0; ; copy++) {
    for (const name of samples) {
      const bytes = new Uint8Array(await readFile(new URL(name, corpus)));
      const count = (await PDFDocument.load(bytes)).getPageCount();
      for (let n = 1; n <= count; n++) {
        if (made++ >= targetPages) return;
        yield { name: `scan-${copy}-${n}-${name}`, png: await renderPdfPage(bytes, n, 200) };
      }
    }
  }
}

async function analyse(
  files: PackageFile[],
  concurrency: number,
): Promise<{ seconds: number; findings: number; peakRssMiB: number }> {
  const docs: DocumentToAnalyse[] = files.map((f, i) => ({
    id: String(i),
    filename: f.path.split('/').pop()!,
    mime: 'application/pdf',
    objectKey: f.path,
  }));
  let peak = process.memoryUsage.rss();
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const start = performance.now();
  const result = await analyseDocuments(
    docs,
    (key) => readFile(key),
    () => {},
    { ocr: tesseractOcr, concurrency },
  );
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sample);
  return { seconds, findings: result.findings.length, peakRssMiB: Math.round(peak / 1024 / 1024) };
}

async function pdftotext(files: PackageFile[]): Promise<number> {
  const start = performance.now();
  for (const f of files) await run('pdftotext', ['-layout', f.path, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return (performance.now() - start) / 1000;
}

/** Seconds the tesseract CLI takes over every page of `files`, rendered at RENDER_DPI beforehand. */
async function tesseractAlone(dir: string, files: readonly PackageFile[], processes: number): Promise<number> {
  const images: string[] = [];
  for (const [i, f] of files.entries()) {
    const bytes = new Uint8Array(await readFile(f.path));
    for (let n = 1; n <= f.pages; n++) {
      const path = join(dir, `ocr-alone-${i}-${n}.png`);
      await writeFile(path, await renderPdfPage(bytes, n, RENDER_DPI));
      images.push(path);
    }
  }
  const start = performance.now();
  await limited(
    processes,
    images.map((path) => () => tesseractText(path, RENDER_DPI)),
  );
  return (performance.now() - start) / 1000;
}

async function main() {
  await run('pdftotext', ['-v']).catch(() => {
    throw new Error('pdftotext is missing: apt-get install poppler-utils');
  });
  const { ocrWorkers } = loadConfig().qc;
  configureOcr({ workers: ocrWorkers });
  // This process holds the packages and every result besides the readers, so the worker's memory limit
  // would stop its pages: it is lifted here (bench:worker-memory measures the worker under it).
  configurePdfThreads({ memoryLimitMb: 16_384 });
  console.log(`OCR workers: ${ocrWorkers}`);
  const dir = await mkdtemp(join(tmpdir(), 'qc-bench-'));
  try {
    const packages = [
      ['300-page text-layer package', await textPackage(dir, 300)],
      ['30-page scanned package', await scannedPackage(dir, 30)],
      ['30-page scanned PDF', await scannedFile(dir, 30)],
    ] as const;
    // A worker process keeps its pdf.js threads and OCR workers between reviews: start them before timing,
    // with one text and one scanned file, and say what that cost.
    const warmUp = await analyse([packages[0][1][0]!, packages[1][1][0]!], ocrWorkers);
    console.log(`warm-up (pdf.js threads and OCR workers starting, 2 files): ${warmUp.seconds.toFixed(1)} s`);
    for (const [label, files] of packages) {
      const pages = files.reduce((s, f) => s + f.pages, 0);
      const ours = await analyse(files, ocrWorkers);
      const reference = await pdftotext(files);
      const ourRate = pages / ours.seconds;
      const refRate = pages / reference;
      console.log(
        `${label}: ${files.length} files, ${pages} pages; QC analysis ${ours.seconds.toFixed(1)} s = ` +
          `${ourRate.toFixed(ourRate < 10 ? 2 : 1)} pages/s ` +
          `(${ours.findings} findings, peak RSS ${ours.peakRssMiB} MiB); pdftotext ` +
          `${reference.toFixed(2)} s = ${refRate.toFixed(1)} pages/s; ` +
          `ratio ${(ourRate / refRate).toFixed(3)}`,
      );
      if (label === '300-page text-layer package') continue;
      // OCR alone on the same pages: each page as the analysis gives it to OCR (rendered at RENDER_DPI),
      // read by the tesseract CLI with the same models, OCR_WORKERS processes at a time.
      const ocrAlone = await tesseractAlone(dir, files, ocrWorkers);
      const ocrRate = pages / ocrAlone;
      console.log(
        `${label}: OCR alone (tesseract CLI, ${ocrWorkers} processes, the same pages at ${RENDER_DPI} dpi) ` +
          `${ocrAlone.toFixed(1)} s = ${ocrRate.toFixed(2)} pages/s; the full analysis at ` +
          `${(ourRate / ocrRate).toFixed(2)} × OCR alone`,
      );
    }
  } finally {
    await Promise.all([terminateOcr(), terminatePdfThreads()]);
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
