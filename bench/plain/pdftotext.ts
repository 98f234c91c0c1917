// The plain alternative of reading a text layer (bench/qc-throughput.ts, bench/loan-file.ts): poppler's
// `pdftotext -layout` over each file, text on stdout, a few processes at a time.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { limited } from './tesseract.js';

const run = promisify(execFile);

/** Fails with what to install when pdftotext is missing. */
export async function requirePdftotext(): Promise<void> {
  await run('pdftotext', ['-v']).catch(() => {
    throw new Error('pdftotext is missing: apt-get install poppler-utils');
  });
}

/** Seconds `pdftotext -layout` takes over every file of `paths`, `processes` at a time. */
export async function pdftotextSeconds(paths: readonly string[], processes: number): Promise<number> {
  const start = performance.now();
  await limited(
    processes,
    paths.map((path) => () => run('pdftotext', ['-layout', path, '-'], { maxBuffer: 64 * 1024 * 1024 })),
  );
  return (performance.now() - start) / 1000;
}
