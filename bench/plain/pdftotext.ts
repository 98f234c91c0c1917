// The plain alternative of reading a text layer (bench/qc-throughput.ts, bench/loan-file.ts): poppler's
// `pdftotext -layout` over each file, text on stdout, a few processes at a time.
import { runPlain } from './run.js';
import { limited } from './tesseract.js';

/** Fails with what to install when pdftotext is missing. */
export async function requirePdftotext(): Promise<void> {
  await runPlain('pdftotext', ['-v']).catch(() => {
    throw new Error('pdftotext is missing: apt-get install poppler-utils');
  });
}

/** Seconds `pdftotext -layout` takes over every file of `paths`, `processes` at a time. */
export async function pdftotextSeconds(paths: readonly string[], processes: number): Promise<number> {
  const start = performance.now();
  await limited(
    processes,
    paths.map((path) => () => runPlain('pdftotext', ['-layout', path, '-'])),
  );
  return (performance.now() - start) / 1000;
}
