// OCR for scanned material: uploaded images (every TIFF frame) and PDF pages without a usable text layer,
// read by a small pool of workers, fully offline, into the same PageText a text layer yields. A worker is
// native tesseract (a child process per page, tesseract-cli.ts) where the binary is installed, else
// tesseract.js (wasm in a worker thread); both give the same PageText.
import { processLog } from '../../telemetry/pino-logger.js';
import { mkdirSync, mkdtempSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { inkImage, otsuThreshold, withCheckBoxes, type InkImage, type OcrWord } from './check-boxes.js';
import { parseHocr } from './hocr.js';
import { ImageRefused, bitmapOfRender, openImage, pgmOf, type ImageFrames, type OcrBitmap } from './images.js';
import { languageOf, type OcrLanguage } from './language.js';
import { pageTextOf } from './layout.js';
import { illegiblePage, OCR_PAGE_WIDTH, RENDER_DPI, type PageText, type TextItem } from './page.js';
import { openPdfRenderer } from './pdf-threads.js';
import { ReaderUnavailable } from './unavailable.js';
import { loopTurns } from './loop-turns.js';
import { baselineAt, MAX_SKEW, skewOf, turnedBitmap } from './skew.js';
import { stopSpawner } from '../../runtime/spawner.js';
import { readUpright, turnsOfOsd, type QuarterTurns } from './orientation.js';
import {
  CpuTimeExceeded,
  probeNativeTesseract,
  tesseractHocr,
  tesseractOrientation,
  WALL_LIMIT_FACTOR,
} from './tesseract-cli.js';
import { errorMessage } from '../error-message.js';

/** What OCR of one file yields; an unreadable file is a finding for the caller, never an exception. */
export type OcrRead = { readable: true; pages: PageText[] } | { readable: false; reason: string };

/**
 * A recognition that spends this much time on a page is abandoned as illegible (its worker is killed and
 * replaced). Native tesseract's runs count their own CPU time (tesseract-cli.ts), so a busy machine that
 * makes a page wait for a core never cuts it short. tesseract.js recognises in a thread of this process,
 * whose CPU time Node 20 does not tell apart: its runs get WALL_LIMIT_FACTOR times this in wall time, the
 * native runs' backstop, which a 2-core machine at load 20 (a tenth of a core each) does not reach on a
 * legible page; a page cut short is read once more. A dense 300-dpi page takes 5–7 s here; a Letter page of
 * pure noise 70–90 s.
 */
export const OCR_PAGE_TIMEOUT_MS = 60_000;
const WORKER_START_TIMEOUT_MS = 60_000;
/** The most workers configureOcr accepts (config.ts validates OCR_WORKERS against the same bound). */
export const MAX_OCR_WORKERS = 8;

const require = createRequire(import.meta.url);
const LANGUAGES: readonly OcrLanguage[] = ['eng', 'spa'];

/**
 * The folder tesseract.js reads its models from. A local folder, not a URL: tesseract.js then reads them
 * from disk and never touches the network (in Node it also loads its wasm core from the local
 * tesseract.js-core package, never from a CDN). It takes one folder for every language while npm installs
 * each in a package of its own, so the folder holds links to them: in node_modules/.cache beside the
 * packages (owned by whoever installed them), else in a private temporary folder of this process. Checked
 * at every worker start, so a cleaned folder is made again.
 */
function models(): string {
  const targets = LANGUAGES.map((language) => {
    const file = `${language}.traineddata.gz`;
    return {
      file,
      target: path.join(
        path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)),
        '4.0.0_best_int',
        file,
      ),
    };
  });
  const installed = path.join(path.dirname(targets[0]!.target), '..', '..', '..', '.cache', 'loan-review-ocr-models');
  try {
    return linked(installed, targets);
  } catch {
    privateModels ??= mkdtempSync(path.join(tmpdir(), 'loan-review-ocr-models-'));
    return linked(privateModels, targets);
  }
}
let privateModels: string | undefined;

function linked(folder: string, targets: readonly { file: string; target: string }[]): string {
  mkdirSync(folder, { recursive: true });
  for (const { file, target } of targets) {
    const link = path.join(folder, file);
    let current: string | undefined;
    try {
      current = readlinkSync(link);
    } catch {
      current = undefined;
    }
    if (current === target) continue;
    // A stale link (the checkout moved): replace it. Two processes racing here make the same link.
    if (current !== undefined) unlinkSync(link);
    try {
      symlinkSync(target, link);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return folder;
}

/**
 * OCRs an image of sniffed type `mime`: one page per TIFF frame, one page for any other type. Pages not
 * begun by `deadline` (epoch ms), or once `signal` is aborted, are not read: they come back illegible, and
 * so do those of ocrPdfPages.
 */
export async function ocrImage(
  bytes: Uint8Array,
  mime: string,
  deadline = Infinity,
  signal?: AbortSignal,
): Promise<OcrRead> {
  const unreadable = (err: unknown): OcrRead => ({
    readable: false,
    reason: err instanceof ImageRefused ? err.message : `image cannot be decoded (${errorMessage(err)})`,
  });
  let image: ImageFrames;
  try {
    image = await openImage(bytes, mime);
  } catch (err) {
    return unreadable(err);
  }
  // A frame that cannot be decoded makes the file unreadable: the error is the file's. Recognition errors
  // that escape `recognize` are the machine's, and propagate.
  const refused: unknown[] = [];
  const pages = await recognisePages(
    image.count,
    (index) => index + 1,
    deadline,
    (index) =>
      image.frame(index).catch((err: unknown) => {
        refused.push(err);
        return STOP;
      }),
    signal,
  );
  return refused.length === 0 ? { readable: true, pages } : unreadable(refused[0]);
}

/**
 * OCRs the given 1-based pages of a PDF by rendering each at `dpi` (RENDER_DPI; bench:ocr measures
 * others). A PDF pdf.js cannot open is unreadable; a page that cannot be rendered comes back empty with
 * confidence 0 (illegible).
 */
export async function ocrPdfPages(
  bytes: Uint8Array,
  pageNumbers: readonly number[],
  deadline = Infinity,
  { dpi = RENDER_DPI, signal }: { dpi?: number; signal?: AbortSignal } = {},
): Promise<OcrRead> {
  // Past the deadline no page is begun: a renderer would be opened only to call every page illegible.
  if (Date.now() >= deadline || signal?.aborted) return { readable: true, pages: pageNumbers.map(illegiblePage) };
  const pdf = await openPdfRenderer(bytes);
  if ('refused' in pdf) return { readable: false, reason: pdf.refused };
  try {
    for (const number of pageNumbers) {
      if (!Number.isInteger(number) || number < 1 || number > pdf.numPages) {
        throw new RangeError(`page ${number} is not in a ${pdf.numPages}-page PDF`);
      }
    }
    const numberAt = (index: number) => pageNumbers[index]!;
    const pages = await recognisePages(
      pageNumbers.length,
      numberAt,
      deadline,
      async (index) => {
        const pixels = await pdf.render(numberAt(index), dpi, deadline);
        if (!pixels) return illegiblePage(numberAt(index));
        try {
          return await bitmapOfRender(pixels);
        } catch {
          return illegiblePage(numberAt(index));
        }
      },
      signal,
    );
    return { readable: true, pages };
  } finally {
    await pdf.close();
  }
}

/**
 * Which tesseract reads: `auto` native tesseract when a usable binary is installed (tesseract-cli.ts), else
 * tesseract.js with a log line; `native` or `tesseract.js` force one (a forced native engine that is
 * missing fails every OCR call as ReaderUnavailable, and startOcrWorkers). The default is `auto`.
 */
export const OCR_ENGINES = ['auto', 'native', 'tesseract.js'] as const;
export type OcrEngineSetting = (typeof OCR_ENGINES)[number];
export type OcrEngine = Exclude<OcrEngineSetting, 'auto'>;

export interface OcrSettings {
  /** Tesseract workers reading pages at once, each on a core of its own (1 to MAX_OCR_WORKERS). */
  workers: number;
  /** See OCR_PAGE_TIMEOUT_MS; tests shorten it. */
  pageTimeoutMs: number;
  /** See OCR_ENGINES; `auto` until changed. */
  engine: OcrEngineSetting;
}

/**
 * Changes the pool's settings and returns the previous ones. Until called, one worker and
 * OCR_PAGE_TIMEOUT_MS; the worker process sets `workers` from OCR_WORKERS. Fewer workers retire the
 * surplus as they finish their pages.
 */
export function configureOcr(changes: Partial<OcrSettings>): OcrSettings {
  const { workers = settings.workers, pageTimeoutMs = settings.pageTimeoutMs, engine = settings.engine } = changes;
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_OCR_WORKERS) {
    throw new RangeError(`OCR workers must be an integer from 1 to ${MAX_OCR_WORKERS}, not ${workers}`);
  }
  if (!(pageTimeoutMs > 0)) throw new RangeError(`OCR page timeout must be positive, not ${pageTimeoutMs}`);
  if (!OCR_ENGINES.includes(engine))
    throw new RangeError(`OCR engine must be one of ${OCR_ENGINES.join(', ')}, not ${engine}`);
  const previous = settings;
  settings = { workers, pageTimeoutMs, engine };
  // Workers of another engine are retired: idle ones now, busy ones when they finish their page.
  if (engine !== previous.engine) {
    chosen = undefined;
    generation++;
    for (const slot of idle.splice(0)) retire(slot);
  }
  while (live.size > settings.workers && idle.length > 0) retire(idle.pop()!);
  dispatch();
  return previous;
}

/** The engine the pool reads with (see OCR_ENGINES); rejects when a forced native engine is missing. */
export function ocrEngine(): Promise<OcrEngine> {
  if (!chosen) {
    const wanted = settings.engine;
    chosen =
      wanted === 'tesseract.js'
        ? Promise.resolve(wanted)
        : probeNativeTesseract().then((native) => {
            if (native.usable) return 'native';
            if (wanted === 'native') throw new Error(`native tesseract is not usable: ${native.reason}`);
            processLog.warn(
              `OCR: native tesseract is not usable (${native.reason}); reading scans with ` +
                `tesseract.js, about half as fast`,
            );
            return 'tesseract.js';
          });
    chosen.catch(() => undefined);
    // A failed probe is not remembered: the next start looks again (the binary may have been installed).
    const probe = chosen;
    probe.catch(() => {
      if (chosen === probe) chosen = undefined;
    });
  }
  return chosen;
}
let chosen: Promise<OcrEngine> | undefined;

/**
 * Starts the pool's workers now, rather than when a scanned page first needs one, and resolves once each
 * has loaded its models: the worker process takes no task before. Fails when one cannot start (a model
 * or the wasm core missing, or a forced native engine absent).
 */
export async function startOcrWorkers(): Promise<void> {
  const slots: Slot[] = [];
  while (live.size < settings.workers) slots.push(newSlot());
  try {
    await Promise.all(slots.map((slot) => slot.worker));
  } catch (err) {
    for (const slot of slots) retire(slot);
    throw err;
  }
  for (const slot of slots) if (live.has(slot)) idle.push(slot);
  dispatch();
}

/**
 * Stops every worker, idle or busy (a page being read comes back illegible). Call it on shutdown (the
 * worker process, a test's `after.always`); a later OCR call starts fresh workers. Idle workers do not
 * keep the process alive, so this is for tidiness and for releasing their memory (about 150 MB each),
 * not a must.
 */
export async function terminateOcr(): Promise<void> {
  const slots = [...live];
  live.clear();
  idle.length = 0;
  await Promise.all(
    slots.map(async (slot) => {
      const worker = await slot.worker.catch(() => null);
      if (worker) await worker.stop('OCR was shut down');
    }),
  );
  // Native tesseract's runs are started by the process helper: it goes too (a later run starts it again).
  await stopSpawner();
}

// ---------------------------------------------------------------------------------------------------
// Pages in flight. One call prepares its pages (renders or decodes them) one at a time, in order, and
// hands each to the pool as soon as it is ready, so the next page is rendered while earlier ones are
// being recognised. It holds at most N + 1 bitmaps (N workers): N being read or waiting for a worker,
// and one more being prepared.

/** What `prepare` returns to stop the call early: the pages already handed over are waited for, no more. */
const STOP = Symbol('stop');

async function recognisePages(
  count: number,
  numberAt: (index: number) => number,
  deadline: number,
  prepare: (index: number) => Promise<OcrBitmap | PageText | typeof STOP>,
  signal?: AbortSignal,
): Promise<PageText[]> {
  const pages: Promise<PageText>[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed = false;
  try {
    for (let index = 0; index < count && !failed; index++) {
      while (inFlight.size > settings.workers && !failed) await Promise.race(inFlight);
      if (failed) break;
      // Past the deadline the rest are neither rendered nor decoded: the caller's time is up (or its
      // reading is no longer wanted).
      const begin = Date.now() < deadline && !signal?.aborted;
      const prepared = begin ? await prepare(index) : illegiblePage(numberAt(index));
      if (prepared === STOP) break;
      const page = 'grey' in prepared ? recognize(prepared, numberAt(index)) : Promise.resolve(prepared);
      const settled: Promise<void> = page.then(
        () => void inFlight.delete(settled),
        () => {
          inFlight.delete(settled);
          failed = true;
        },
      );
      inFlight.add(settled);
      pages.push(page);
    }
  } finally {
    // Never return while this call's pages still occupy workers, even when giving up early.
    await Promise.all(inFlight);
  }
  return Promise.all(pages);
}

// ---------------------------------------------------------------------------------------------------
// The pool. Workers start when a page needs one and none is free, up to N; each reads one page at a
// time, so the page timeout measures recognition, not waiting in line. A worker that fails or outlives a
// page is stopped and forgotten, and the next page that needs one starts a fresh one.

/** A word as a worker hands it over: OCR's with its confidence, or a check box found in the pixels. */
type PageWord = OcrWord & { confidence?: number };

/** A line in the straightened page's pixels: its words, its baseline's y at its middle and its height. */
interface StraightLine {
  words: PageWord[];
  baseline: number;
  height: number;
}

/**
 * What a worker read on one page: lines in the straightened page's pixels, the turn that straightened it,
 * and the quarter turns that made the page upright first (orientation.ts), with the upright page's size.
 */
interface ReadPage {
  lines: StraightLine[];
  turned: number;
  quarterTurns: QuarterTurns;
  width: number;
  height: number;
}

interface OcrWorker {
  /**
   * Reads one page upright (orientation.ts) in English, again in Spanish when it is Spanish; rejects on a
   * timeout or a crash.
   */
  read(bitmap: OcrBitmap): Promise<ReadPage>;
  stop(reason: string): Promise<void>;
  readonly stopped: boolean;
}

/** A place in the pool, held from the moment its worker begins to start. */
interface Slot {
  worker: Promise<OcrWorker>;
  /** The configureOcr generation it was started in: a change of engine retires older slots. */
  generation: number;
}

let settings: OcrSettings = { workers: 1, pageTimeoutMs: OCR_PAGE_TIMEOUT_MS, engine: 'auto' };
let generation = 0;
/** Every slot whose worker is starting, busy or idle. */
const live = new Set<Slot>();
const idle: Slot[] = [];
/** Pages waiting for a worker, first come first served. */
const waiting: Array<(slot: Slot) => void> = [];

function newSlot(): Slot {
  const slot: Slot = { worker: startWorker(), generation };
  live.add(slot);
  return slot;
}

function acquire(): Promise<Slot> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    dispatch();
  });
}

/** Hands free or new workers to waiting pages while there are both. */
function dispatch(): void {
  while (waiting.length > 0) {
    let slot = idle.shift();
    if (!slot) {
      if (live.size >= settings.workers) return;
      slot = newSlot();
      slot.worker.catch(() => undefined); // the page it was started for sees the failure
    }
    waiting.shift()!(slot);
  }
}

/** Back to the pool after a page, unless the pool was stopped, shrunk or switched engine meanwhile. */
function release(slot: Slot, worker: OcrWorker): void {
  if (live.has(slot) && live.size <= settings.workers && !worker.stopped && slot.generation === generation)
    idle.push(slot);
  else retire(slot);
  dispatch();
}

function retire(slot: Slot): void {
  live.delete(slot);
  void slot.worker.then((worker) => worker.stop('retired')).catch(() => undefined);
}

/**
 * Reads one page on a worker of the pool. A page cut short for anything but the recognition's own cost
 * (a worker that crashed, a wall-clock limit on a starved machine) is read once more on a fresh worker
 * before it is called illegible; one that spent its whole CPU-time limit is illegible at once.
 */
async function recognize(bitmap: OcrBitmap, number: number): Promise<PageText> {
  const first = await recognizeOnce(bitmap, number);
  if (first.ok || first.error instanceof CpuTimeExceeded || first.error instanceof ReaderUnavailable)
    return settle(first);
  processLog.warn(`OCR: page ${number} was cut short (${errorMessage(first.error)}); reading it again`);
  return settle(await recognizeOnce(bitmap, number));
}

type Recognised = { ok: true; page: PageText } | { ok: false; error: unknown; number: number };

function settle(r: Recognised): PageText {
  if (r.ok) return r.page;
  if (r.error instanceof ReaderUnavailable) throw r.error;
  return illegiblePage(r.number);
}

async function recognizeOnce(bitmap: OcrBitmap, number: number): Promise<Recognised> {
  const slot = await acquire();
  let worker: OcrWorker;
  try {
    worker = await slot.worker;
  } catch (err) {
    // Not the input's fault (a model, the wasm core or a forced native binary is missing): let the
    // caller fail and retry.
    live.delete(slot);
    dispatch();
    return { ok: false, error: new ReaderUnavailable(errorMessage(err)), number };
  }
  let page: ReadPage;
  try {
    page = await worker.read(bitmap);
  } catch (error) {
    // A time limit or a tesseract failure on this page. The worker may be wedged or its heap spoiled:
    // replace it; the page is read again or reported illegible rather than failing the whole document.
    live.delete(slot);
    dispatch();
    await worker.stop('page abandoned');
    return { ok: false, error, number };
  }
  release(slot, worker);
  return { ok: true, page: toPageText(page, number) };
}

async function startWorker(): Promise<OcrWorker> {
  return (await ocrEngine()) === 'native' ? nativeWorker() : await startTesseractJs();
}

// ---------------------------------------------------------------------------------------------------
// Native tesseract: a process per page (tesseract-cli.ts), so a worker holds no state but the process
// it is running; stopping it kills that process. A tilted page is turned and read again (skew.ts); check
// boxes are looked for in the pixels of the page as read.

function nativeWorker(): OcrWorker {
  let stopped = false;
  const running = new AbortController();
  const hocr = async (bitmap: OcrBitmap, language: OcrLanguage) =>
    parseHocr(await tesseractHocr(bitmap, language, settings.pageTimeoutMs, running.signal));
  return {
    get stopped() {
      return stopped;
    },
    async read(original) {
      // A page that does not read upright as it lies is turned as tesseract's orientation detection says.
      const upright = await readUpright(
        original,
        (bitmap) => hocr(bitmap, 'eng'),
        (lines) => lines.flatMap((l) => l.words),
        async (bitmap) => {
          const report = await tesseractOrientation(bitmap, settings.pageTimeoutMs, running.signal);
          return report === undefined ? undefined : turnsOfOsd(report);
        },
      );
      const page = upright.bitmap;
      let language: OcrLanguage = 'eng';
      let lines = upright.reading;
      // A Spanish page is read again with the Spanish model (about twice the time, for those pages only):
      // the English one loses its accents and mangles its words, figures included ("30 años" → "30 2/705").
      if (languageOf(lines.flatMap((l) => l.words.map((w) => w.text))) === 'spa')
        lines = await hocr(page, (language = 'spa'));
      // A tilted page is turned straight and read again (skew.ts).
      let bitmap = page;
      const turned = skewOf(lines);
      if (turned !== 0) {
        bitmap = await turnedBitmap(page, turned);
        lines = await hocr(bitmap, language);
      }
      // Tesseract binarises the pixels with Otsu's threshold before reading; the same threshold gives
      // check-boxes.ts the ink tesseract saw (a blurred scan's box outlines are grey, lighter than a fixed
      // mid-grey cut keeps). Cut where looked at, not copied whole.
      const ink = inkImage(bitmap.grey, bitmap.width, bitmap.height, otsuThreshold(bitmap.grey));
      const turn = loopTurns();
      const read: StraightLine[] = [];
      for (const line of lines) {
        // Finding check boxes searches the pixels beside each word: a dense page takes a while.
        await turn();
        const middle = (line.bbox.x0 + line.bbox.x1) / 2;
        read.push({
          words: withCheckBoxes(line.words, ink),
          baseline: baselineAt(line, middle),
          height: line.rowHeight || line.bbox.y1 - line.bbox.y0,
        });
      }
      return { lines: read, turned, quarterTurns: upright.turns, width: page.width, height: page.height };
    },
    async stop() {
      stopped = true;
      running.abort();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// tesseract.js: the fallback where native tesseract is absent. A worker thread with its models loaded;
// it deskews by turning the image before reading it (rotateAuto), so its boxes and its binarised image
// are on the straightened page already.

async function startTesseractJs(): Promise<OcrWorker> {
  let timer: NodeJS.Timeout | undefined;
  const tesseract = await Promise.race([
    Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: models(),
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
  // Its diagnostics ("Detected 88 diacritics", "Line cannot be recognized!!") go nowhere: they would
  // interleave with the worker's log. (Both set again after every change of language: initialising a
  // model resets them.)
  const tuned = () => tesseract.setParameters({ user_defined_dpi: '300', debug_file: '/dev/null' });
  await tuned();
  let language: OcrLanguage = 'eng';

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

  async function recognize(pgm: Uint8Array, wanted: OcrLanguage): Promise<Tesseract.Page> {
    thread?.ref();
    let timer: NodeJS.Timeout | undefined;
    try {
      if (wanted !== language) {
        // About 70 ms: the model is loaded already (the first change loads it, once per worker).
        language = wanted;
        await Promise.race([tesseract.reinitialize(wanted, Tesseract.OEM.LSTM_ONLY).then(tuned), death]);
      }
      // rotateAuto deskews first (about 15% more time): a scan a degree or two off would otherwise give
      // the words of one line different baselines, and the layout step groups lines by y.
      const job = tesseract.recognize(
        Buffer.from(pgm.buffer, pgm.byteOffset, pgm.byteLength),
        { rotateAuto: true },
        {
          text: false,
          blocks: true,
          // Tesseract's own binarised page, turned as it deskewed it: the image its word boxes refer to,
          // where check boxes are looked for (a few ms to encode, the page's 1-bit PNG).
          imageBinary: true,
        },
      );
      job.catch(() => undefined); // if the timeout or a crash wins the race, the job is abandoned
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('OCR timed out')), settings.pageTimeoutMs * WALL_LIMIT_FACTOR);
      });
      return (await Promise.race([job, death, timeout])).data;
    } finally {
      clearTimeout(timer);
      thread?.unref();
    }
  }

  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    async read(original) {
      // tesseract.js detects orientation only with its legacy engine and models: the turns a first reading
      // leaves possible are read instead (orientation.ts). Its rotateAuto turns a sideways page by a quarter
      // turn of its own, boxes and all: such a reading's words count as running down the page, and the turn
      // that reads it level without one is looked for.
      const upright = await readUpright(
        original,
        (bitmap) => recognize(pgmOf(bitmap), 'eng'),
        (page) =>
          Math.abs(page.rotateRadians ?? 0) > MAX_SKEW
            ? wordsOf(page).map((w) => ({ ...w, level: false }))
            : wordsOf(page),
      );
      let page = upright.reading;
      // As the native worker: a Spanish page is read again with the Spanish model.
      if (languageOf(wordsOf(page).map((w) => w.text)) === 'spa') page = await recognize(pgmOf(upright.bitmap), 'spa');
      const ink = await inkOf(page);
      const turn = loopTurns();
      const lines: StraightLine[] = [];
      for (const block of page.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            // Finding check boxes searches the pixels beside each word: a dense page takes a while.
            await turn();
            lines.push({
              words: ink ? withCheckBoxes(line.words, ink) : line.words,
              baseline: baselineOf(line),
              height: line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0,
            });
          }
        }
      }
      return {
        lines,
        turned: page.rotateRadians ?? 0,
        quarterTurns: upright.turns,
        width: upright.bitmap.width,
        height: upright.bitmap.height,
      };
    },
    async stop(reason) {
      if (stopped) return;
      stopped = true;
      died(new Error(reason));
      await tesseract.terminate();
    },
  };
}

function wordsOf(page: Tesseract.Page): Tesseract.Word[] {
  return (page.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((p) => p.lines.flatMap((line) => line.words)));
}

/** The binarised page tesseract read, or nothing when it cannot be decoded (check boxes are then not looked for). */
async function inkOf(page: Tesseract.Page): Promise<InkImage | undefined> {
  const png = /^data:image\/png;base64,(.*)$/s.exec(page.imageBinary ?? '')?.[1];
  if (!png) return undefined;
  try {
    const { data, info } = await sharp(Buffer.from(png, 'base64'))
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return inkImage(data, info.width, info.height);
  } catch {
    return undefined;
  }
}

/** Tesseract's baseline is a segment, sloped when the line is; its height at the line's middle. */
function baselineOf(line: Tesseract.Line): number {
  const { x0, y0, x1, y1 } = line.baseline;
  if (x1 === x0) return y0 || line.bbox.y1;
  const middle = (line.bbox.x0 + line.bbox.x1) / 2;
  return y0 + ((y1 - y0) * (middle - x0)) / (x1 - x0);
}

// ---------------------------------------------------------------------------------------------------
// From a worker's lines to PageText: words become items in points (page width OCR_PAGE_WIDTH, origin
// bottom-left, y on the baseline), and `text` is built by the same line grouping a text layer gets.

function toPageText(page: ReadPage, number: number): PageText {
  const scale = OCR_PAGE_WIDTH / page.width;
  const items: TextItem[] = [];
  let confidenceSum = 0;
  let read = 0;
  for (const line of page.lines) {
    // Every word of a tesseract line gets the line's one baseline, as the runs of a text-layer line
    // share theirs: a slope left after deskewing must not split the line when layout groups by y.
    const y = round((page.height - line.baseline) * scale);
    const height = round(line.height * scale);
    for (const word of line.words) {
      const text = word.text.trim();
      // A table's rule read as a glyph is no word: it would join a label to its value.
      if (text === '' || /^[|¦‖]+$/.test(text)) continue;
      // A check box found in the pixels has no confidence of its own: the page's mean is OCR's.
      if (word.confidence !== undefined) {
        confidenceSum += word.confidence;
        read++;
      }
      const { x0, x1, y0, y1 } = word.bbox;
      const ink = { bottom: round((page.height - y1) * scale), top: round((page.height - y0) * scale) };
      items.push({
        text,
        x: round(x0 * scale),
        y,
        width: round((x1 - x0) * scale),
        height,
        ink,
        ...(word.confidence !== undefined && { confidence: word.confidence }),
      });
    }
  }
  return {
    number,
    items,
    text: pageTextOf(items, 'ocr'),
    source: 'ocr',
    confidence: read === 0 ? 0 : round(confidenceSum / read),
    ...(page.turned ? { turned: page.turned } : {}),
    ...(page.quarterTurns ? { quarterTurns: page.quarterTurns } : {}),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
