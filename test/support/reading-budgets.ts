// The reading tests measure what the engine reads, not how fast: on a machine busy with other suites a
// scanned page can take many times its usual seconds, and the production budgets (60 s a page for OCR,
// 30 s a render) would turn it into an illegible page. These tests lift the budgets; the budgets have
// tests of their own (test/reading/ocr.test.ts, test/unit/qc/reading/pdf-threads.test.ts).
import { loadConfig } from '../../src/config.js';
import { configureOcr } from '../../src/qc/reading/ocr.js';
import { configurePdfThreads } from '../../src/qc/reading/pdf-threads.js';

const TEN_MINUTES = 600_000;

/** Also reads with the engine OCR_ENGINE names (config.ts), so that a suite can be run on either. */
export function readWithoutTimeBudgets(options: { ocrWorkers: number }): void {
  configureOcr({ workers: options.ocrWorkers, pageTimeoutMs: TEN_MINUTES, engine: loadConfig().qc.ocrEngine });
  configurePdfThreads({
    openTimeoutMs: TEN_MINUTES,
    pageTimeoutMs: TEN_MINUTES,
    fileTimeoutMs: 3 * TEN_MINUTES,
    renderTimeoutMs: TEN_MINUTES,
  });
}
