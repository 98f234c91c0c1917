// Native tesseract (Debian's `tesseract-ocr`, 5.x) run as a child process per page: the bitmap in a
// temporary file, hOCR on stdout. About twice as fast as tesseract.js's wasm build on the same page and core.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pgmHeader, type OcrBitmap } from './images.js';
import type { OcrLanguage } from './language.js';
import { spawnProcess, type SpawnedProcess } from '../../runtime/spawner.js';
import { statFieldsAfterCommand } from '../../runtime/proc-stat.js';

/** The binary looked for on PATH; scripts/stack/tesseract.ts installs it, the Dockerfile too. */
const BINARY = 'tesseract';
const REQUIRED_LANGUAGES: readonly OcrLanguage[] = ['eng', 'spa'];
/** The models in the folder: the languages, and `osd`, tesseract's orientation and script detection. */
const MODELS: readonly string[] = [...REQUIRED_LANGUAGES, 'osd'];
/** More hOCR than this from one page is no page (a dense Letter page gives about 1 MB with character boxes). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** `--version` and `--list-langs` answer in milliseconds; a binary that does not is not used. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * A run's time limit counts the CPU time tesseract itself spends (read from /proc): on a busy machine a
 * page waits for a core, and waiting says nothing of the page. Past this many times the limit in wall
 * time, a run that is starved or stuck is stopped all the same.
 */
export const WALL_LIMIT_FACTOR = 10;
/** How often a run's CPU time is looked at. */
const CPU_POLL_MS = 250;
/** Linux's clock ticks a second (USER_HZ), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

/** A run that spent its whole CPU-time limit: the page itself costs that much (noise, a huge image). */
export class CpuTimeExceeded extends Error {
  override name = 'CpuTimeExceeded';
}

/** The CPU time (user and system, ms) the process has spent, or undefined where /proc cannot say. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = statFieldsAfterCommand(stat);
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : undefined;
  } catch {
    return undefined;
  }
}

/** Whether native tesseract can be used here, and if not why (said in the log line of the fallback). */
export type NativeTesseract = { usable: true; version: string } | { usable: false; reason: string };

const require = createRequire(import.meta.url);

/**
 * The folder of models native tesseract reads: the best_int models tesseract.js reads too (the
 * @tesseract.js-data packages), gunzipped once into node_modules/.cache, else a temporary folder. Debian's
 * own models (tessdata_fast) are 1.7 times as fast but lose fields on blurred 150-dpi scans that these
 * read (test/reading/corpus.test.ts; docs/reading.md).
 */
export function nativeModels(): string {
  if (modelsFolder && MODELS.every((m) => existsSync(path.join(modelsFolder!, `${m}.traineddata`))))
    return modelsFolder;
  const source = (model: string) =>
    path.join(
      path.dirname(require.resolve(`@tesseract.js-data/${model}/package.json`)),
      '4.0.0_best_int',
      `${model}.traineddata.gz`,
    );
  const cache = path.join(
    path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '..',
    '..',
    '.cache',
    'loan-review-tessdata',
  );
  for (const folder of [cache, path.join(tmpdir(), `loan-review-tessdata-${process.getuid?.() ?? 'user'}`)]) {
    try {
      mkdirSync(folder, { recursive: true });
      for (const model of MODELS) {
        const file = path.join(folder, `${model}.traineddata`);
        if (existsSync(file)) continue;
        // Written aside and renamed: a process reading the folder meanwhile never sees half a model.
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, gunzipSync(readFileSync(source(model))));
        renameSync(partial, file);
      }
      return (modelsFolder = folder);
    } catch {}
  }
  throw new Error('no folder could hold the OCR models');
}
let modelsFolder: string | undefined;

/**
 * Runs `tesseract --version` and `--list-langs`: a 5.x binary that reads our models, or why not. An abort
 * of `signal` kills the probe and rejects (the launcher stopped while starting).
 */
export async function probeNativeTesseract(signal?: AbortSignal): Promise<NativeTesseract> {
  let version: string;
  let languages: string;
  try {
    version = (await run(['--version'], PROBE_TIMEOUT_MS, signal)).stdout;
    languages = (await run(['--list-langs', '--tessdata-dir', nativeModels()], PROBE_TIMEOUT_MS, signal)).stdout;
  } catch (err) {
    signal?.throwIfAborted();
    return {
      usable: false,
      reason:
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? `no ${BINARY} binary on PATH`
          : `${BINARY} did not run (${(err as Error).message})`,
    };
  }
  const number = /tesseract\s+v?(\d+)\.(\d+)\.(\d+)/i.exec(version);
  if (!number || Number(number[1]) < 5)
    return { usable: false, reason: `${BINARY} is not version 5 (${version.split('\n')[0]?.trim() ?? ''})` };
  const listed = new Set(languages.split('\n').map((l) => l.trim()));
  const missing = REQUIRED_LANGUAGES.filter((l) => !listed.has(l));
  if (missing.length > 0) return { usable: false, reason: `${BINARY} has no model for ${missing.join(', ')}` };
  return { usable: true, version: `${number[1]}.${number[2]}.${number[3]}` };
}

/**
 * The arguments reading one page image (a file) to hOCR on stdout, with the settings tesseract.js reads
 * with: our models, LSTM only, 300 dpi (our bitmaps are normalised to about that); automatic page
 * segmentation, where tesseract.js's API default reads the page as one block (docs/reading.md). Character
 * boxes are for check-boxes.ts and skew.ts.
 */
export function tesseractArguments(image: string, language: OcrLanguage): string[] {
  // hOCR asked for by its variables, not by the `hocr` config file: that file is looked up beside the models,
  // and our models folder has none (tesseract would silently write plain text).
  return [
    image,
    'stdout',
    '--tessdata-dir',
    nativeModels(),
    '-l',
    language,
    '--oem',
    '1',
    '--psm',
    '3',
    '--dpi',
    '300',
    '-c',
    'tessedit_create_hocr=1',
    '-c',
    'hocr_font_info=0',
    '-c',
    'hocr_char_boxes=1',
  ];
}

/**
 * The environment of every run: one thread each (OCR_WORKERS processes share the cores; tesseract's
 * OpenMP threads would only contend), and no locale-dependent number parsing.
 */
export function tesseractEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, OMP_THREAD_LIMIT: '1', LC_ALL: 'C' };
}

/**
 * OCRs one bitmap (as a PGM file) into hOCR; rejects on a failed run, and kills the process once it has
 * spent `timeoutMs` of CPU time (CpuTimeExceeded), or ten times that in wall time.
 * The image goes in as a file, not on stdin: tesseract reads stdin a character at a time through
 * std::cin, which cost it 0.08–0.1 s of CPU on a 300-dpi page (7% of reading it), against a few
 * milliseconds here to write the file (into the page cache; it is removed once read).
 */
export async function tesseractHocr(
  bitmap: OcrBitmap,
  language: OcrLanguage,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  return withPageImage(
    bitmap,
    async (file) => (await run(tesseractArguments(file, language), timeoutMs, signal)).stdout,
  );
}

/**
 * Tesseract's orientation and script detection on one bitmap (`--psm 0`, the `osd` model): its report
 * ("Rotate: 90", "Orientation confidence: 12.3"; orientation.ts reads it), or undefined where it finds too
 * little text to say or fails. An abort of `signal` rejects.
 */
export async function tesseractOrientation(
  bitmap: OcrBitmap,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const args = (file: string) => [file, 'stdout', '--tessdata-dir', nativeModels(), '--psm', '0', '--dpi', '300'];
  try {
    return await withPageImage(bitmap, async (file) => (await run(args(file), timeoutMs, signal)).stdout);
  } catch {
    signal?.throwIfAborted();
    // "Too few characters. Skipping this page" exits 1: a page with little text has no orientation to tell.
    return undefined;
  }
}

/** Runs `use` on the bitmap written as a PGM file, removed afterwards. */
async function withPageImage<T>(bitmap: OcrBitmap, use: (file: string) => Promise<T>): Promise<T> {
  const file = path.join(imageFolder(), `page-${++images}.pgm`);
  // Header and pixels written apart: the page's pixels are never copied behind a header.
  const handle = await open(file, 'w');
  try {
    await handle.writev([pgmHeader(bitmap), bitmap.grey]);
  } finally {
    await handle.close();
  }
  try {
    return await use(file);
  } finally {
    await unlink(file).catch(() => undefined);
  }
}
let images = 0;

/** A private folder of this process for the page images tesseract reads, made once, removed at its exit. */
function imageFolder(): string {
  if (!pageImages) {
    const folder = mkdtempSync(path.join(tmpdir(), 'loan-review-ocr-pages-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    pageImages = folder;
  }
  mkdirSync(pageImages, { recursive: true }); // cleaned meanwhile (a tmp reaper): made again
  return pageImages;
}
let pageImages: string | undefined;

/**
 * Runs tesseract with `args` (started by the process helper, spawner.ts, at background priority), its
 * output kept; rejects on a failed run, one over its budget, or an abort of `signal`.
 */
function run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const out: Uint8Array[] = [];
    let outBytes = 0;
    let err = '';
    let failure: Error | undefined;
    let child: SpawnedProcess | undefined;
    let timer: NodeJS.Timeout | undefined;
    const stop = (reason: Error) => {
      failure ??= reason;
      child?.kill();
    };
    const aborted = () => stop(new Error(`${BINARY} was stopped`));
    const done = () => {
      clearInterval(timer);
      signal?.removeEventListener('abort', aborted);
    };
    if (signal?.aborted) aborted();
    signal?.addEventListener('abort', aborted, { once: true });
    const listeners = {
      stdout(chunk: Uint8Array) {
        outBytes += chunk.length;
        if (outBytes > MAX_OUTPUT_BYTES) stop(new Error(`${BINARY} wrote more than ${MAX_OUTPUT_BYTES} bytes`));
        else out.push(chunk);
      },
      stderr(chunk: Uint8Array) {
        // Its diagnostics ("Estimating resolution", "Detected 88 diacritics") are kept only to explain a failure.
        if (err.length < 4096) err += Buffer.from(chunk).toString('utf8');
      },
    };
    spawnProcess(BINARY, args, tesseractEnvironment(), listeners, { background: true }).then(
      (started) => {
        child = started;
        // Stopped (aborted) while it was being started.
        if (failure) started.kill();
        const begun = Date.now();
        timer = setInterval(() => {
          const cpu = cpuTimeMs(started.pid);
          const wall = Date.now() - begun;
          // Where /proc cannot say (another system), wall time stands in for the CPU time.
          if ((cpu ?? wall) > timeoutMs)
            stop(new CpuTimeExceeded(`${BINARY} spent more than ${timeoutMs} ms on the page`));
          else if (wall > timeoutMs * WALL_LIMIT_FACTOR)
            stop(new Error(`${BINARY} ran for ${wall} ms (${cpu ?? '?'} ms of CPU): starved or stuck`));
        }, CPU_POLL_MS);
        started.closed.then(
          ({ code, signal: killedBy }) => {
            done();
            if (failure) reject(failure);
            else if (code !== 0)
              reject(
                new Error(`${BINARY} exited with ${code ?? killedBy}: ${err.trim().split('\n').slice(-2).join(' ')}`),
              );
            else resolve({ stdout: Buffer.concat(out).toString('utf8') });
          },
          (e: unknown) => {
            done();
            reject(failure ?? e);
          },
        );
      },
      // Not started (no binary, no helper): nothing ran, so nothing else will report.
      (e: unknown) => {
        done();
        reject(failure ?? e);
      },
    );
  });
}
