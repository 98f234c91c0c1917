// The plain alternative of OCR (bench/ocr.ts, bench/qc-throughput.ts, bench/loan-file.ts): the tesseract
// CLI run by hand on a page image with the service's models, text on stdout, a few processes at a time.
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { RENDER_DPI } from '../../src/qc/reading/page.js';
import { renderPdfPage } from '../../src/qc/reading/render.js';
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
 * Every page of the PDFs `files` rendered at RENDER_DPI, as the analysis hands it to OCR, into PNG files
 * of `dir` for the CLI; their paths, in page order.
 */
export async function pageImages(dir: string, files: readonly { path: string; pages: number }[]): Promise<string[]> {
  const images: string[] = [];
  for (const f of files) {
    const bytes = new Uint8Array(await readFile(f.path));
    for (let n = 1; n <= f.pages; n++) {
      const path = join(dir, `ocr-alone-${basename(f.path)}-${n}.png`);
      await writeFile(path, await renderPdfPage(bytes, n, RENDER_DPI));
      images.push(path);
    }
  }
  return images;
}
