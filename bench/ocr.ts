// `npm run bench:ocr`: OCR of scanned pages, the service's path against native tesseract run by hand.
// The pages are the CFPB Loan Estimate and Closing Disclosure samples (test/corpus/cfpb) rendered to
// 300-dpi greyscale PNGs, as a scanner sends them (300 dpi: what the service tells tesseract its bitmaps
// are). "here": ocrImage on each (decoding, evening out the paper, native tesseract through the pool of
// OCR_WORKERS=2, hOCR parsed, check boxes, deskew); "plain": `tesseract page.png stdout` with the same
// models (tesseract-cli.ts nativeModels), two processes at a time, one thread each. Both are scored by
// word recall against the PDFs' own text layer; the service must not read fewer words.
//
// `npm run bench:ocr -- --resolutions` measures instead what a scanned PDF's render resolution costs and
// gains (docs/reading.md): image-only PDFs of the same pages scanned at 150, 200 and 300 dpi (JPEG 85),
// read through ocrPdfPages rendering at 200 dpi, 300 dpi and the scan's own resolution.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfigOrExit } from '../src/config.js';
import { configureOcr, ocrEngine, ocrImage, ocrPdfPages, terminateOcr } from '../src/qc/reading/ocr.js';
import { readPdf, terminatePdfThreads } from '../src/qc/reading/pdf-threads.js';
import { probeNativeTesseract } from '../src/qc/reading/tesseract-cli.js';
import { limited, pagePngs, tesseractText } from './plain/tesseract.js';
import { imagePdf } from '../test/support/degrade.js';
import { alternate, report } from './side-by-side.js';

const CORPUS = new URL('../test/corpus/cfpb/', import.meta.url);
const WORKERS = 2;
const ROUNDS = 3;
const DPI = 300;

interface Page {
  name: string;
  png: Buffer;
  /** The text layer's words: what a reader should find on the page. */
  truth: string[];
}

/**
 * Words as compared: punctuation around a word is not the word ("Amount:" reads as "Amount"). A marked
 * check box is one word however it is written: "x" in the CFPB text layer, "x" or "X" as tesseract reads
 * it, "☒" as the service states it (check-boxes.ts); an empty box is no word in the text layer.
 */
function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => (w === '☒' || w === 'X' ? 'x' : w.replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}%]+$/gu, '')))
    .filter((w) => w !== '');
}

/** Share of the text layer's words read, each counted as often as printed (a multiset intersection). */
function recall(pages: readonly { truth: string[]; read: string[] }[]): number {
  let found = 0;
  let total = 0;
  for (const { truth, read } of pages) {
    const left = new Map<string, number>();
    for (const w of read) left.set(w, (left.get(w) ?? 0) + 1);
    for (const w of truth) {
      total++;
      const n = left.get(w) ?? 0;
      if (n > 0) {
        found++;
        left.set(w, n - 1);
      }
    }
  }
  return found / total;
}

async function corpusPages(dpi: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (const file of readdirSync(CORPUS)
    .filter((f) => f.endsWith('.pdf'))
    .sort()) {
    const bytes = readFileSync(new URL(file, CORPUS));
    const layer = await readPdf(bytes);
    if (!layer.readable) throw new Error(`${file}: ${layer.reason}`);
    // A cover page of a few words says little about reading; every form page has hundreds.
    const read = layer.pages
      .map((page) => ({ number: page.number, truth: words(page.text) }))
      .filter((page) => page.truth.length >= 50);
    const rendered = await pagePngs(
      new Uint8Array(bytes),
      read.map((page) => page.number),
      dpi,
    );
    for (const [i, { number, truth }] of read.entries()) {
      const png = await sharp(rendered[i]).flatten({ background: '#ffffff' }).greyscale().png().toBuffer();
      pages.push({ name: `${file} p${number}`, png, truth });
    }
  }
  return pages;
}

/** The service's path: files read OCR_WORKERS at a time, as the analysis reads them (activities/analysis.ts). */
async function ours(pages: readonly Page[]): Promise<string[][]> {
  return limited(
    WORKERS,
    pages.map((page) => async () => {
      const read = await ocrImage(page.png, 'image/png');
      if (!read.readable || read.pages.length !== 1)
        throw new Error(`${page.name}: ${read.readable ? `${read.pages.length} pages` : read.reason}`);
      return words(read.pages[0]!.text);
    }),
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { seconds: (performance.now() - started) / 1000, result };
}

async function sideBySide(): Promise<void> {
  const pages = await corpusPages(DPI);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ocr-'));
  try {
    const files = pages.map((page, i) => {
      const file = path.join(dir, `page-${i}.png`);
      writeFileSync(file, page.png);
      return file;
    });
    console.error(`${pages.length} pages at ${DPI} dpi, ${WORKERS} at a time`);
    // Warm-up, outside the rounds: the pool's first processes and the page cache.
    await ours(pages.slice(0, WORKERS));
    let hereRecall = 0;
    let plainRecall = 0;
    const sides = await alternate(
      ROUNDS,
      {
        label: `the service (${engine}, OCR_WORKERS=${WORKERS})`,
        measure: async () => {
          const { seconds, result } = await timed(() => ours(pages));
          hereRecall = recall(pages.map((page, i) => ({ truth: page.truth, read: result[i]! })));
          return pages.length / seconds;
        },
      },
      {
        label: `plain (tesseract CLI, ${WORKERS} processes)`,
        measure: async () => {
          const { seconds, result } = await timed(() =>
            limited(
              WORKERS,
              files.map((file) => () => tesseractText(file)),
            ),
          );
          plainRecall = recall(pages.map((page, i) => ({ truth: page.truth, read: words(result[i]!) })));
          return pages.length / seconds;
        },
      },
    );
    console.error(`word recall against the text layer: here ${hereRecall.toFixed(4)}, plain ${plainRecall.toFixed(4)}`);
    report({
      what: 'OCR of scanned pages',
      unit: 'pages/s',
      higherIsBetter: true,
      here: sides.here,
      plain: sides.plain,
      target: 0.9,
      notes: [
        `${pages.length} CFPB LE/CD pages rendered at ${DPI} dpi (PNG, grey), ${WORKERS} at a time; ` +
          `the service on its configured engine, ${engine} (OCR_ENGINE); plain: native tesseract ` +
          `${version}, best_int models`,
        `word recall against the text layer: here ${hereRecall.toFixed(3)}, plain ` +
          `${plainRecall.toFixed(3)} ${hereRecall >= plainRecall ? '✓' : '✗ (below plain)'}`,
      ],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function resolutions(): Promise<void> {
  for (const scanDpi of [150, 200, 300]) {
    const pages = await corpusPages(scanDpi);
    const jpegs = await Promise.all(pages.map((p) => sharp(p.png).jpeg({ quality: 85 }).toBuffer()));
    const pdf = await imagePdf(jpegs);
    const numbers = pages.map((_, i) => i + 1);
    await ocrPdfPages(pdf, numbers.slice(0, WORKERS), Infinity, { dpi: DPI }); // warm-up
    for (const [label, renderDpi] of [
      ['200 dpi', 200],
      ['300 dpi', 300],
      ['own', scanDpi],
    ] as const) {
      const figures: { rate: number; recall: number; load: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const { seconds, result } = await timed(() => ocrPdfPages(pdf, numbers, Infinity, { dpi: renderDpi }));
        if (!result.readable) throw new Error(result.reason);
        figures.push({
          rate: pages.length / seconds,
          recall: recall(pages.map((page, i) => ({ truth: page.truth, read: words(result.pages[i]!.text) }))),
          load: loadavg()[0]!,
        });
      }
      const rates = figures.map((f) => f.rate).sort((a, b) => a - b);
      console.log(
        `scanned at ${scanDpi} dpi, rendered at ${label} (${renderDpi}): median ${rates[1]!.toFixed(2)} pages/s ` +
          `(${rates.map((r) => r.toFixed(2)).join(', ')}), word recall ` +
          `${figures[0]!.recall.toFixed(3)}, load ${figures.map((f) => f.load.toFixed(1)).join('/')}`,
      );
    }
  }
}

let version = '';
const engine = loadConfigOrExit().qc.ocrEngine;
try {
  const native = await probeNativeTesseract();
  if (!native.usable) throw new Error(`native tesseract is needed: ${native.reason}`);
  version = native.version;
  // The service's own engine (its configured default unless OCR_ENGINE says otherwise): what it runs is
  // what is measured against plain tesseract.
  configureOcr({ workers: WORKERS, engine });
  if (engine !== 'auto' && (await ocrEngine()) !== engine) throw new Error(`the OCR pool is not on ${engine}`);
  if (process.argv.includes('--resolutions')) await resolutions();
  else await sideBySide();
} catch (err) {
  console.error(`bench:ocr failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await terminateOcr();
  await terminatePdfThreads();
}
