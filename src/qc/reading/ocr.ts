// OCR for scanned material: uploaded images (every TIFF frame) and PDF pages without a usable text layer,
// read by one shared tesseract.js worker, fully offline, into the same PageText a text layer yields.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import { ImageRefused, bitmapFromImage, openImage, type ImageFrames, type OcrBitmap } from './images.js';
import { pageTextOf } from './layout.js';
import { OCR_PAGE_WIDTH, type PageText, type TextItem } from './page.js';
import { openPdfForRendering, PdfRefused, renderPdfPage, type PdfDocument } from './render.js';

/** What OCR of one file yields; an unreadable file is a finding for the caller, never an exception. */
export type OcrRead = { readable: true; pages: PageText[] } | { readable: false; reason: string };

/**
 * A page still unfinished after this is abandoned as illegible (its worker is killed and replaced). A
 * dense 300-dpi page takes 5–7 s here; a Letter page of pure noise takes 70–90 s and reads as nothing.
 */
export const OCR_PAGE_TIMEOUT_MS = 60_000;
const WORKER_START_TIMEOUT_MS = 60_000;

const require = createRequire(import.meta.url);
// A local folder, not a URL: tesseract.js then reads the model from disk and never touches the network.
// (In Node it also loads its wasm core from the local tesseract.js-core package, never from a CDN.)
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** OCRs an image of sniffed type `mime`: one page per TIFF frame, one page for any other type. */
export async function ocrImage(bytes: Uint8Array, mime: string): Promise<OcrRead> {
  const unreadable = (err: unknown): OcrRead => ({
    readable: false,
    reason: err instanceof ImageRefused ? err.message : `image cannot be decoded (${describe(err)})`,
  });
  let image: ImageFrames;
  try {
    image = await openImage(bytes, mime);
  } catch (err) {
    return unreadable(err);
  }
  const pages: PageText[] = [];
  // Frames are decoded one at a time, so a long TIFF never holds more than one bitmap. Decoding errors
  // are the file's; recognition errors that escape `recognize` are the machine's, and propagate.
  for (let index = 0; index < image.count; index++) {
    let bitmap: OcrBitmap;
    try {
      bitmap = await image.frame(index);
    } catch (err) {
      return unreadable(err);
    }
    pages.push(await recognize(bitmap, index + 1));
  }
  return { readable: true, pages };
}

/**
 * OCRs the given 1-based pages of a PDF by rendering each at 300 dpi. A PDF pdf.js cannot open is
 * unreadable; a page that cannot be rendered comes back empty with confidence 0 (illegible).
 */
export async function ocrPdfPages(bytes: Uint8Array, pageNumbers: readonly number[]): Promise<OcrRead> {
  let pdf: PdfDocument;
  try {
    pdf = await openPdfForRendering(bytes);
  } catch (err) {
    if (err instanceof PdfRefused) return { readable: false, reason: err.message };
    throw err;
  }
  try {
    for (const number of pageNumbers) {
      if (!Number.isInteger(number) || number < 1 || number > pdf.numPages) {
        throw new RangeError(`page ${number} is not in a ${pdf.numPages}-page PDF`);
      }
    }
    const pages: PageText[] = [];
    for (const number of pageNumbers) {
      let bitmap: OcrBitmap;
      try {
        bitmap = await bitmapFromImage(await renderPdfPage(pdf, number));
      } catch {
        pages.push(emptyPage(number));
        continue;
      }
      pages.push(await recognize(bitmap, number));
    }
    return { readable: true, pages };
  } finally {
    await pdf.destroy();
  }
}

/**
 * Stops the shared worker. Call it on shutdown (the worker process, a test's `after.always`); a later
 * OCR call starts a fresh worker. An idle worker does not keep the process alive, so this is for
 * tidiness and for releasing its memory (about 150 MB), not a must.
 */
export async function terminateOcr(): Promise<void> {
  const starting = current;
  current = null;
  if (!starting) return;
  const worker = await starting.catch(() => null);
  if (worker) await worker.stop('OCR was shut down');
}

// ---------------------------------------------------------------------------------------------------
// The worker. One only: the machine has two cores, tesseract uses one per worker, and the other is left
// for the rest of the process. Pages are recognised one at a time, so the page timeout measures
// recognition, not waiting in line, and at most one bitmap per caller is held while waiting.

interface OcrWorker {
  recognize(pgm: Uint8Array): Promise<Tesseract.Page>;
  stop(reason: string): Promise<void>;
}

let current: Promise<OcrWorker> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function exclusive<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

async function recognize(bitmap: OcrBitmap, number: number): Promise<PageText> {
  return exclusive(async () => {
    const starting = (current ??= startWorker());
    let worker: OcrWorker;
    try {
      worker = await starting;
    } catch (err) {
      // Not the input's fault (the model or the wasm core is missing): let the caller fail and retry.
      if (current === starting) current = null;
      throw err;
    }
    try {
      return toPageText(await worker.recognize(bitmap.pgm), bitmap, number);
    } catch {
      // A timeout or a tesseract failure on this page. The worker may be wedged or its heap spoiled:
      // replace it, and report the page as illegible rather than failing the whole document.
      if (current === starting) current = null;
      await worker.stop('page abandoned');
      return emptyPage(number);
    }
  });
}

async function startWorker(): Promise<OcrWorker> {
  let timer: NodeJS.Timeout | undefined;
  const tesseract = await Promise.race([
    Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job inside its message listener, which would
      // be an uncaught exception; the job's own promise still rejects.
      errorHandler: () => {},
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('OCR worker did not start')), WORKER_START_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  // Our bitmaps are normalised to about 300 dpi; saying so stops tesseract guessing from glyph sizes.
  await tesseract.setParameters({ user_defined_dpi: '300' });

  // tesseract.js keeps the worker_threads Worker on an undeclared property; it is needed to notice a
  // crashed thread (else its promises never settle) and to let an idle worker not hold the process open.
  const held: unknown = (tesseract as unknown as { worker?: unknown }).worker;
  const thread = held instanceof Thread ? held : null;
  let died: (reason: Error) => void = () => {};
  const death = new Promise<never>((_, reject) => {
    died = reject;
  });
  death.catch(() => undefined);
  thread?.on('error', (err) => died(err));
  thread?.on('exit', () => died(new Error('OCR worker exited')));
  thread?.unref();

  let stopped = false;
  return {
    async recognize(pgm) {
      thread?.ref();
      let timer: NodeJS.Timeout | undefined;
      try {
        // rotateAuto deskews first (about 15% more time): a scan a degree or two off would otherwise give
        // the words of one line different baselines, and the layout step groups lines by y.
        const job = tesseract.recognize(Buffer.from(pgm.buffer, pgm.byteOffset, pgm.byteLength), { rotateAuto: true }, {
          text: false,
          blocks: true,
        });
        job.catch(() => undefined); // if the timeout or a crash wins the race, the job is abandoned
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('OCR timed out')), OCR_PAGE_TIMEOUT_MS);
        });
        return (await Promise.race([job, death, timeout])).data;
      } finally {
        clearTimeout(timer);
        thread?.unref();
      }
    },
    async stop(reason) {
      if (stopped) return;
      stopped = true;
      died(new Error(reason));
      await tesseract.terminate();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// From tesseract's blocks to PageText: words become items in points (page width OCR_PAGE_WIDTH, origin
// bottom-left, y on the baseline), and `text` is built by the same line grouping a text layer gets.

function toPageText(page: Tesseract.Page, bitmap: OcrBitmap, number: number): PageText {
  const scale = OCR_PAGE_WIDTH / bitmap.width;
  const items: TextItem[] = [];
  let confidenceSum = 0;
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        // Every word of a tesseract line gets the line's one baseline, as the runs of a text-layer line
        // share theirs: a slope left after deskewing must not split the line when layout groups by y.
        const y = round((bitmap.height - baselineOf(line)) * scale);
        const height = round((line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0) * scale);
        for (const word of line.words) {
          const text = word.text.trim();
          if (text === '') continue;
          confidenceSum += word.confidence;
          const { x0, x1 } = word.bbox;
          items.push({ text, x: round(x0 * scale), y, width: round((x1 - x0) * scale), height });
        }
      }
    }
  }
  return {
    number,
    items,
    text: pageTextOf(items),
    source: 'ocr',
    confidence: items.length === 0 ? 0 : round(confidenceSum / items.length),
  };
}

/** Tesseract's baseline is a segment, sloped when the line is; its height at the line's middle. */
function baselineOf(line: Tesseract.Line): number {
  const { x0, y0, x1, y1 } = line.baseline;
  if (x1 === x0) return y0 || line.bbox.y1;
  const middle = (line.bbox.x0 + line.bbox.x1) / 2;
  return y0 + ((y1 - y0) * (middle - x0)) / (x1 - x0);
}

function emptyPage(number: number): PageText {
  return { number, items: [], text: '', source: 'ocr', confidence: 0 };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
