// The plain alternative of OCR (bench/ocr.ts, bench/qc-throughput.ts, bench/loan-file.ts): the tesseract
// CLI run by hand on a page image with the service's models, text on stdout, a few processes at a time.
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { RENDER_DPI } from '../../src/qc/reading/page.js';
import { openPdfRenderer } from '../../src/qc/reading/pdf-threads.js';
import { nativeModels, tesseractEnvironment } from '../../src/qc/reading/tesseract-cli.js';
import { runPlain } from './run.js';

/** Runs `tasks` at most `limit` at a time. */
export async function limited<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/** `tesseract file stdout` in English with the service's models (and `--dpi` when the image does not say). */
export function tesseractText(file: string, dpi?: number): Promise<string> {
  const args = [file, 'stdout', '--tessdata-dir', nativeModels(), '-l', 'eng', ...(dpi ? ['--dpi', String(dpi)] : [])];
  return runPlain('tesseract', args, tesseractEnvironment());
}

/**
 * Pages `numbers` of a PDF drawn at `dpi` as PNGs (the pixels of render.ts's renderPdfPage), in the service's
 * own pdf.js threads, the file opened once: a benchmark that measures the analysis in its process must not
 * load pdf.js on its main thread, which the worker's never does (pdf.js and its source maps would grow the
 * heap every garbage collection of the measured analysis marks, some 120 MiB).
 */
export async function pagePngs(bytes: Uint8Array, numbers: readonly number[], dpi: number): Promise<Uint8Array[]> {
  const renderer = await openPdfRenderer(bytes);
  if ('refused' in renderer) throw new Error(`the pages cannot be drawn: ${renderer.refused}`);
  try {
    const pngs: Uint8Array[] = [];
    for (const n of numbers) {
      const pixels = await renderer.render(n, dpi);
      if (!pixels) throw new Error(`page ${n} did not render`);
      const { data, channels, width, height } = pixels;
      pngs.push(new Uint8Array(await sharp(data, { raw: { width, height, channels } }).png().toBuffer()));
    }
    return pngs;
  } finally {
    await renderer.close();
  }
}

/**
 * Every page of the PDFs `files` rendered at RENDER_DPI, as the analysis hands it to OCR, into PNG files
 * of `dir` for the CLI; their paths, in page order.
 */
export async function pageImages(dir: string, files: readonly { path: string; pages: number }[]): Promise<string[]> {
  const images: string[] = [];
  for (const f of files) {
    const numbers = Array.from({ length: f.pages }, (_, i) => i + 1);
    const pngs = await pagePngs(new Uint8Array(await readFile(f.path)), numbers, RENDER_DPI);
    for (const [i, png] of pngs.entries()) {
      const path = join(dir, `ocr-alone-${basename(f.path)}-${i + 1}.png`);
      await writeFile(path, png);
      images.push(path);
    }
  }
  return images;
}
