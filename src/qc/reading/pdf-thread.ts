// The inside of a pdf.js thread (started by pdf-threads.ts): holds at most one open PDF and answers one
// request at a time about it. pdf.js parses and draws synchronously for long stretches; here that stalls
// only this thread, which the main thread can time out and terminate, while activities keep heartbeating.
import { parentPort } from 'node:worker_threads';
import { formFieldsOf, readPdfPage, type FormField, type PdfPageReading } from './pdf-text.js';
import { openPdf, type PdfDocument } from './pdfjs.js';
import {
  openPdfForRendering,
  PdfRefused,
  renderPageForOcr,
  renderPagePixels,
  type OcrPixels,
  type PagePixels,
} from './render.js';
import { errorMessage } from '../error-message.js';
import { lowerThisThreadsPriority } from '../../runtime/background-priority.js';

export type PdfRequest =
  | { type: 'open'; bytes: Uint8Array; rendering: boolean }
  | { type: 'read'; page: number }
  | { type: 'fields' }
  | { type: 'render'; page: number; dpi: number }
  | { type: 'pixels'; page: number; dpi: number }
  | { type: 'close' };

export type PdfReply =
  | { type: 'ready' }
  | { type: 'opened'; numPages: number }
  /** The file's fault: pdf.js cannot parse it. */
  | { type: 'refused'; reason: string }
  /** The machine's fault (the canvas module missing): the analysis should fail and be retried. */
  | { type: 'unavailable'; reason: string }
  | { type: 'page'; reading: PdfPageReading }
  | { type: 'fields'; formFields: FormField[] }
  | ({ type: 'rendered' } & OcrPixels)
  | ({ type: 'pixels' } & PagePixels)
  | { type: 'failed'; reason: string }
  | { type: 'closed' };

const port = parentPort;
if (!port) throw new Error('pdf-thread.ts runs as a worker thread (see pdf-threads.ts)');
// Reading yields the CPU to the process's other work (background-priority.ts).
lowerThisThreadsPriority();
let pdf: PdfDocument | null = null;

// Requests come one at a time: the main thread awaits each reply before it sends the next.
port.on('message', (request: PdfRequest) => {
  void answer(request).then(
    (reply) =>
      port.postMessage(
        reply,
        reply.type === 'rendered' || reply.type === 'pixels' ? [reply.data.buffer as ArrayBuffer] : [],
      ),
    (err: unknown) => port.postMessage({ type: 'failed', reason: errorMessage(err) } satisfies PdfReply),
  );
});
// Loading pdf.js's parser and renderer, the canvas module and a standard font costs a fresh thread some
// 200 MB, once. It is paid here, before the thread says it is ready, so that the memory watch
// (pdf-threads.ts) sees what a request itself adds, not the thread's start-up. A failure here is left to
// the first real request to report.
await warmUp().catch(() => {});
port.postMessage({ type: 'ready' } satisfies PdfReply);

async function warmUp(): Promise<void> {
  const page = 'BT /F1 12 Tf 4 30 Td (Warm) Tj ET';
  const warm = new TextEncoder().encode(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] ' +
      '/Count 1>> endobj\n' +
      '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Contents 4 0 R /Resources <</Font ' +
      '<</F1 5 0 R>>>>>> endobj\n' +
      `4 0 obj <</Length ${page.length}>> stream\n${page}\nendstream endobj\n` +
      '5 0 obj <</Type /Font /Subtype /Type1 /BaseFont /Helvetica>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  );
  const doc = await openPdfForRendering(warm);
  try {
    await readPdfPage(doc, 1);
    await renderPagePixels(doc, 1, 72);
  } finally {
    await doc.destroy();
  }
}

async function answer(request: PdfRequest): Promise<PdfReply> {
  switch (request.type) {
    case 'open': {
      await close();
      try {
        pdf = request.rendering ? await openPdfForRendering(request.bytes) : await openPdf(request.bytes);
      } catch (err) {
        if (request.rendering && !(err instanceof PdfRefused))
          return { type: 'unavailable', reason: errorMessage(err) };
        return { type: 'refused', reason: errorMessage(err) };
      }
      return { type: 'opened', numPages: pdf.numPages };
    }
    case 'read':
      return { type: 'page', reading: await readPdfPage(opened(), request.page) };
    case 'fields':
      return { type: 'fields', formFields: await formFieldsOf(opened()) };
    case 'render':
      return { type: 'rendered', ...(await renderPageForOcr(opened(), request.page, request.dpi)) };
    case 'pixels':
      return { type: 'pixels', ...(await renderPagePixels(opened(), request.page, request.dpi)) };
    case 'close':
      await close();
      return { type: 'closed' };
  }
}

function opened(): PdfDocument {
  if (!pdf) throw new Error('no PDF is open');
  return pdf;
}

/** Drops the open PDF and what pdf.js holds for it; a PDF that fails even that is gone all the same. */
async function close(): Promise<void> {
  const open = pdf;
  pdf = null;
  await open?.destroy().catch(() => undefined);
}
