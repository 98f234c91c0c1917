// The worker process's readers, owned here: the pdf.js threads (pdf-threads.ts) and the OCR pool
// (ocr.ts). The worker starts them before it takes a task, so the first analysis pays no start-up and a
// reader that cannot start stops the worker at once rather than failing reviews; it stops them on shutdown.
// Code that reads without starting them (tests, benchmarks) gets them started on first use.
import { configureOcr, startOcrWorkers, terminateOcr, type OcrEngineSetting } from './ocr.js';
import { startPdfThreads, terminatePdfThreads } from './pdf-threads.js';

export async function startReaders(options: { ocrWorkers: number; ocrEngine?: OcrEngineSetting }): Promise<void> {
  configureOcr({ workers: options.ocrWorkers, engine: options.ocrEngine ?? 'tesseract.js' });
  await Promise.all([startPdfThreads(), startOcrWorkers()]);
}

export async function stopReaders(): Promise<void> {
  await Promise.all([terminateOcr(), terminatePdfThreads()]);
}
