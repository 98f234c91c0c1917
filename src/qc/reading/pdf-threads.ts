// pdf.js off the main thread. pdf.js parses content streams and draws pages synchronously: a crafted page
// of millions of text runs held the worker's event loop for 22 s, past the activity heartbeat timeout,
// and stalled every other activity of the process. Here each open PDF lives in a worker thread of its
// own, every request to it has a time budget, and a thread that overruns it (or runs out of its heap)
// is terminated: the page it was on becomes illegible, and reading goes on from the next page in a fresh
// thread. The main thread only waits.
import type { Worker as Thread } from 'node:worker_threads';
import { illegiblePage, type PageText } from './page.js';
import type { PdfReply, PdfRequest } from './pdf-thread.js';
import { startThread } from '../../runtime/thread-entry.js';
import type { PdfReading } from './pdf-text.js';
import type { OcrPixels, PagePixels } from './render.js';
import { ReaderUnavailable } from './unavailable.js';
import { errorMessage } from '../error-message.js';

export interface PdfThreadSettings {
  /** Parsing a file's structure (cross-reference table, page tree) before its first page. */
  openTimeoutMs: number;
  /** Reading one page's text layer and judging whether it needs OCR. A dense form page takes 20–50 ms. */
  pageTimeoutMs: number;
  /** The whole text layer of one file; pages past it are illegible. 300 form pages take about 3 s. */
  fileTimeoutMs: number;
  /** Rendering one page for OCR; a Letter scan at 300 dpi takes well under a second. */
  renderTimeoutMs: number;
  /**
   * Threads at most, each holding one open PDF; more files wait. An idle thread costs some 80 MiB once
   * it has read a file (src/runtime/thread-entry.ts), a reading one what its page holds plus the streams it
   * decoded, so the count bounds the worker's memory as much as its speed. Two keep both cores of the target
   * machine busy.
   */
  threads: number;
  /**
   * Text runs kept from one file, on the main thread's heap (about 200 bytes each): 1,800 pages of
   * Closing Disclosures hold 540,000. Pages past it are illegible, so that a file of pages crammed with
   * runs cannot exhaust the worker's memory.
   */
  fileItems: number;
  /** Characters kept from one file, likewise: a page's runs may hold 50,000 (pdf-text.ts), in few runs. */
  fileChars: number;
  /**
   * The process's resident memory (MiB) past which a thread whose request grew it by MEMORY_GROWTH_MB
   * is terminated, its page illegible. pdf.js keeps decoded streams in ArrayBuffers, outside the heap
   * ceiling below: a content stream that inflates to 512 MiB takes the worker to some 1,900 MiB unwatched
   * and some 1,300 MiB with this watch (npm run bench:worker-memory). The worker's
   * budget is 1.5 GiB. The limit is for a runaway request, not for load: the test suite's worker, reading
   * four reviews at once, reaches 1.5 GiB with no request to blame.
   */
  memoryLimitMb: number;
}

export const DEFAULT_PDF_THREAD_SETTINGS: PdfThreadSettings = {
  openTimeoutMs: 30_000,
  pageTimeoutMs: 15_000,
  fileTimeoutMs: 180_000,
  renderTimeoutMs: 30_000,
  threads: 2,
  fileItems: 1_000_000,
  fileChars: 20_000_000,
  memoryLimitMb: 1_280,
};

/**
 * A thread's heap ceiling. A PDF built to exhaust memory kills its thread, not the worker process with
 * every activity it runs. Decoded streams and images live outside the heap: pdf.js's maxImageSize
 * (pdfjs.ts) bounds images, the memory watch below the rest, and it stops a runaway heap as well (the
 * heap is resident memory too). The ceiling is no lower because V8 sizes its collections by it: under
 * 2 GiB its heap controller lets a heap grow by a smaller factor between collections (from 2 GiB on, by
 * its largest), and a thread reading pages, with a live heap of some 30 MiB and much short-lived
 * garbage, collected so often that reading a form page took 70 ms of CPU instead of 34
 * (the reading alone in `npm run bench:qc`: 27 text pages a second against 64, at 512 and 2,048).
 */
const THREAD_HEAP_MB = 2048;
const THREAD_START_TIMEOUT_MS = 60_000;
/**
 * Pages read from one PDF at most. pdf.js trusts a page tree's counts, so a 10 KB file can claim a
 * billion pages; the largest loan packages run to a few thousand.
 */
export const MAX_PDF_PAGES = 5_000;
/** Requests of one file that may overrun their budget before the rest of its pages are given up. */
const MAX_STALLS = 3;
/** Less time than this left is no time: a request sent with it would only kill a healthy thread. */
const MIN_REQUEST_MS = 250;

let settings: PdfThreadSettings = DEFAULT_PDF_THREAD_SETTINGS;

/** Changes the time budgets and returns the previous ones (tests shorten them). */
export function configurePdfThreads(changes: Partial<PdfThreadSettings>): PdfThreadSettings {
  const next = { ...settings, ...changes };
  for (const [name, value] of Object.entries(next)) {
    if (!(value > 0)) throw new RangeError(`${name} must be positive, not ${value}`);
  }
  if (!Number.isInteger(next.threads)) throw new RangeError(`threads must be an integer, not ${next.threads}`);
  const previous = settings;
  settings = next;
  serveWaiting();
  return previous;
}

/**
 * Starts the pool's threads now, rather than when files first need them, and resolves once each is ready
 * (pdf.js, the canvas module and a font loaded): the worker process takes no task before.
 */
export async function startPdfThreads(): Promise<void> {
  const starting: Promise<void>[] = [];
  for (; live < settings.threads; live++) {
    starting.push(
      PdfThread.start(threadGone).then(
        (thread) => release(thread),
        (err: unknown) => {
          threadGone();
          throw err;
        },
      ),
    );
  }
  await Promise.all(starting);
}

/** Stops the idle threads (the worker's shutdown, a test's after.always). Busy ones end with their file. */
export async function terminatePdfThreads(): Promise<void> {
  await Promise.all(idle.splice(0).map((thread) => thread.terminate()));
}

/**
 * Reads a PDF's text layer, page by page, and its AcroForm values, within the file's budget and the
 * caller's deadline (epoch ms), whichever ends first. A PDF pdf.js cannot parse, cannot
 * open within its budget, or of more than MAX_PDF_PAGES pages, is unreadable. A page that overruns its
 * budget is illegible (DOC-006) and the pages after it are still read, up to MAX_STALLS such pages, the
 * file's budget or its text runs (`fileItems`); the pages left then are illegible too, as are those left
 * once `signal` is aborted. Throws only ReaderUnavailable (no thread).
 */
export async function readPdf(bytes: Uint8Array, callerDeadline = Infinity, signal?: AbortSignal): Promise<PdfReading> {
  // Opened for rendering: a page's words are checked against its render (visible-text.ts).
  const opened = await PdfSession.open(bytes, true);
  if (!(opened instanceof PdfSession)) return { readable: false, reason: opened.refused };
  const session = opened;
  // Counted from the open file: starting a thread is the machine's time, and opening has its own budget.
  const deadline = Math.min(Date.now() + settings.fileTimeoutMs, callerDeadline);
  try {
    const pages: PageText[] = [];
    const ocrPages: number[] = [];
    let items = 0;
    let chars = 0;
    for (let n = 1; n <= session.numPages; n++) {
      const more = items < settings.fileItems && chars < settings.fileChars && !signal?.aborted;
      const reading = more
        ? await session.ask({ type: 'read', page: n }, settings.pageTimeoutMs, deadline, (r) =>
            r.type === 'page' ? r.reading : null,
          )
        : null;
      if (!reading) {
        pages.push(illegiblePage(n));
        continue;
      }
      pages.push(reading.page);
      items += reading.page.items.length;
      chars += reading.page.text.length;
      if (reading.ocr) ocrPages.push(n);
    }
    const formFields = signal?.aborted
      ? []
      : ((await session.ask({ type: 'fields' }, settings.pageTimeoutMs, deadline, (r) =>
          r.type === 'fields' ? r.formFields : null,
        )) ?? []);
    return { readable: true, pages, formFields, ocrPages };
  } finally {
    await session.close();
  }
}

/** A PDF open for rendering pages (for OCR, and for pictures of evidence); the caller closes it. */
export interface PdfRenderer {
  readonly numPages: number;
  /**
   * The page as pixels for OCR (render.ts renderPageForOcr), or null when it cannot be rendered within its
   * budget or before `deadline` (epoch ms): it is illegible.
   */
  render(page: number, dpi: number, deadline?: number): Promise<OcrPixels | null>;
  /** The page as raw pixels with where user space lands on them (render.ts renderPagePixels); null as render. */
  pixels(page: number, dpi: number, deadline?: number): Promise<PagePixels | null>;
  close(): Promise<void>;
}

/**
 * Opens a PDF for rendering, or says why pdf.js refuses it. Throws ReaderUnavailable when rendering
 * cannot work on this machine (no thread, no canvas module).
 */
export async function openPdfRenderer(bytes: Uint8Array): Promise<PdfRenderer | { refused: string }> {
  const session = await PdfSession.open(bytes, true);
  if (!(session instanceof PdfSession)) return session;
  return {
    numPages: session.numPages,
    render: (page, dpi, deadline = Infinity) =>
      session.ask({ type: 'render', page, dpi }, settings.renderTimeoutMs, deadline, (r) =>
        r.type === 'rendered' ? { data: r.data, channels: r.channels, width: r.width, height: r.height } : null,
      ),
    pixels: (page, dpi, deadline = Infinity) =>
      session.ask({ type: 'pixels', page, dpi }, settings.renderTimeoutMs, deadline, (r) =>
        r.type === 'pixels' ? { data: r.data, width: r.width, height: r.height, transform: r.transform } : null,
      ),
    close: () => session.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// A session: one PDF open in one thread at a time. When a request overruns, the thread is terminated and
// the next request reopens the PDF in a fresh thread. After MAX_STALLS overruns, or a reopen that fails,
// the session is broken and every later request comes back empty at once: a hostile file costs a few
// budgets, not one per page.

type Opening =
  | { type: 'opened'; numPages: number }
  | { type: 'refused'; reason: string }
  | { type: 'stalled'; reason: string };

class PdfSession {
  private thread: PdfThread | null;
  private stalls = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly rendering: boolean,
    thread: PdfThread,
    readonly numPages: number,
  ) {
    this.thread = thread;
  }

  static async open(bytes: Uint8Array, rendering: boolean): Promise<PdfSession | { refused: string }> {
    const thread = await acquire();
    const opened = await openIn(thread, bytes, rendering);
    if (opened.type === 'opened') {
      const session = new PdfSession(bytes, rendering, thread, opened.numPages);
      if (opened.numPages <= MAX_PDF_PAGES) return session;
      await session.close();
      return { refused: `the PDF has ${opened.numPages} pages, more than the ${MAX_PDF_PAGES} read from one file` };
    }
    return { refused: opened.type === 'refused' ? opened.reason : `the PDF could not be opened (${opened.reason})` };
  }

  /**
   * What `take` makes of the reply (null for a reply of another kind, such as 'failed'), or null when the
   * request overran `timeoutMs`, could not finish before `deadline` (epoch ms; a reopen counts against it
   * too) or the session is broken.
   */
  async ask<T>(
    request: PdfRequest,
    timeoutMs: number,
    deadline: number,
    take: (reply: PdfReply) => T | null,
  ): Promise<T | null> {
    for (let attempt = 1; ; attempt++) {
      const thread = await this.usableThread(deadline);
      const budget = Math.min(timeoutMs, deadline - Date.now());
      if (!thread || budget < MIN_REQUEST_MS) return null;
      try {
        return take(await thread.ask(request, budget, { alone: attempt > 1 }));
      } catch (err) {
        if (!(err instanceof ThreadStalled)) throw err;
        this.thread = null;
        // The memory watch cannot tell the file to blame from a page read beside it (watchMemory): a
        // request it stopped is sent once more, in a fresh thread once the memory is back with room for
        // it, with no other request in flight (soleRequest). Stopped again, or with no room, the page is
        // illegible.
        if (err.forMemory && attempt === 1) continue;
        this.stalls++;
        return null;
      }
    }
  }

  /** Drops the PDF from its thread and gives the thread back; one that does not answer is terminated. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    this.stalls = MAX_STALLS;
    if (!thread) return;
    const closed = await thread.ask({ type: 'close' }, settings.openTimeoutMs).catch(() => null);
    if (closed?.type === 'closed') release(thread);
    else await thread.terminate();
  }

  private async usableThread(deadline: number): Promise<PdfThread | null> {
    if (this.thread || this.stalls >= MAX_STALLS || deadline - Date.now() < MIN_REQUEST_MS) return this.thread;
    const thread = await acquire();
    const reopened = await openIn(thread, this.bytes, this.rendering, deadline);
    if (reopened.type === 'opened') return (this.thread = thread);
    this.stalls = MAX_STALLS;
    return null;
  }
}

/**
 * Opens the PDF in `thread`. The thread goes back to the pool unless the PDF stays open in it or it was
 * terminated; a machine fault (the canvas module missing) throws ReaderUnavailable.
 */
async function openIn(thread: PdfThread, bytes: Uint8Array, rendering: boolean, deadline = Infinity): Promise<Opening> {
  let reply: PdfReply;
  try {
    // Copied, not transferred: the session keeps its bytes for a reopen, and the caller owns them.
    reply = await thread.ask(
      { type: 'open', bytes, rendering },
      Math.max(MIN_REQUEST_MS, Math.min(settings.openTimeoutMs, deadline - Date.now())),
    );
  } catch (err) {
    if (err instanceof ThreadStalled) return { type: 'stalled', reason: err.message };
    // Not the file's doing (a message that cannot be sent): the thread is not worth keeping.
    await thread.terminate();
    throw err;
  }
  if (reply.type === 'opened') return reply;
  release(thread);
  if (reply.type === 'unavailable') throw new ReaderUnavailable(`PDF rendering is unavailable: ${reply.reason}`);
  return { type: 'refused', reason: 'reason' in reply ? reply.reason : `pdf.js answered ${reply.type}` };
}

// ---------------------------------------------------------------------------------------------------
// Threads: started when a file needs one and none is idle, up to `threads`, then kept for the next file
// (starting one, loading pdf.js, takes about a second). Each answers one request at a time; an idle one
// does not keep the process alive.

/** The thread overran its budget, ran out of heap or crashed; it has been terminated. */
class ThreadStalled extends Error {
  override name = 'ThreadStalled';
  /** Stopped by the memory watch, which stops any request working beside the one to blame (watchMemory). */
  readonly forMemory: boolean;

  constructor(message: string, o: { forMemory?: boolean } = {}) {
    super(message);
    this.forMemory = o.forMemory ?? false;
  }
}

const idle: PdfThread[] = [];
/** Threads started and not yet gone: idle, busy or starting. */
let live = 0;
/** Sessions waiting for a thread, first come first served. */
const waiting: Array<{ resolve: (thread: PdfThread) => void; reject: (err: unknown) => void }> = [];

function acquire(): Promise<PdfThread> {
  return new Promise((resolve, reject) => {
    waiting.push({ resolve, reject });
    serveWaiting();
  });
}

/** Hands idle threads, or new ones while under the cap, to waiting sessions. */
function serveWaiting(): void {
  while (waiting.length > 0) {
    const thread = idle.pop();
    if (thread) {
      if (thread.alive) waiting.shift()!.resolve(thread);
      continue;
    }
    if (live >= settings.threads) return;
    const waiter = waiting.shift()!;
    live++;
    PdfThread.start(threadGone).then(waiter.resolve, (err: unknown) => {
      threadGone();
      waiter.reject(err);
    });
  }
}

/** Back to the pool after a file (a thread that died meanwhile is already counted out). */
function release(thread: PdfThread): void {
  if (!thread.alive) return;
  if (live > settings.threads) {
    void thread.terminate();
    return;
  }
  idle.push(thread);
  serveWaiting();
}

/** Called once for each started thread that ends (terminated or crashed), and for one that failed to start. */
function threadGone(thread?: PdfThread): void {
  live--;
  if (thread) {
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
  }
  serveWaiting();
}

/** How often the process's memory is looked at while a thread works. */
const MEMORY_POLL_MS = 20;
/** The process's resident memory, in MiB. */
const residentMb = () => process.memoryUsage.rss() / (1024 * 1024);
/**
 * Growth (MiB) of the process's memory during a request, past which that request is one to stop when the
 * memory is over the limit: a request that added little is not to blame, and a process whose memory
 * stays over the limit for other reasons (OCR, memory a stopped thread has not given back) still reads.
 * A thread's own start-up (some 200 MiB) is paid before it is ready, unwatched (pdf-thread.ts).
 */
const MEMORY_GROWTH_MB = 256;
/** Threads with a request in flight, and the process's memory (MiB) when it began. */
const working = new Map<PdfThread, number>();
let watchdog: NodeJS.Timeout | undefined;

/**
 * Polls resident memory while any thread works; past the limit, every working thread during whose request
 * it grew by more than MEMORY_GROWTH_MB is terminated (the one to blame cannot be told from outside, so
 * one working beside it is stopped too; PdfSession.ask sends a stopped request once more). A decode grows
 * memory as it writes, at a few hundred MB a second, so a poll every 20 ms stops it a few MB past the limit.
 */
function watchMemory(): void {
  if (watchdog || working.size === 0) return;
  watchdog = setInterval(() => {
    if (working.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
      return;
    }
    const rssMb = residentMb();
    if (rssMb <= settings.memoryLimitMb) return;
    for (const [thread, atStart] of [...working]) {
      if (rssMb - atStart <= MEMORY_GROWTH_MB) continue;
      lastMemoryStop = Date.now();
      memoryStops++;
      thread.stop(
        `the worker's memory reached ${Math.round(rssMb)} MiB, over its ${settings.memoryLimitMb} MiB limit`,
        { forMemory: true },
      );
    }
  }, MEMORY_POLL_MS);
  watchdog.unref();
}

/** How long after a thread is stopped for memory a request waits for the memory to come back. */
const MEMORY_WAIT_MS = 2_000;
/** When a thread was last stopped for memory (epoch ms), and how many requests have been. */
let lastMemoryStop = 0;
let memoryStops = 0;

/** Requests the memory watch has stopped in this process, the ones to blame and bystanders alike. */
export function requestsStoppedForMemory(): number {
  return memoryStops;
}

/** Requests the threads are working on now (the memory watch's charge). */
export function pdfRequestsInFlight(): number {
  return working.size;
}
/**
 * A request sent again after the memory watch stopped it runs with no other request in flight (requests
 * sent meanwhile wait for it): stopped again, it is the one to blame, not a bystander once more.
 */
let soleRequest: Promise<void> | null = null;

/**
 * Whether resident memory is under the limit: waited for while a thread was stopped for memory in the last
 * MEMORY_WAIT_MS. A stopped thread's memory is given back some milliseconds after it ends (V8 frees
 * ArrayBuffers on a background thread); a request begun at once would be stopped for memory not its own.
 * Some of it is never given back to the system: a process that stays over the limit does not wait.
 */
async function memoryUnderLimit(room = 0): Promise<boolean> {
  const under = () => residentMb() + room <= settings.memoryLimitMb;
  while (Date.now() < lastMemoryStop + MEMORY_WAIT_MS) {
    if (under()) return true;
    await new Promise((r) => setTimeout(r, MEMORY_POLL_MS));
  }
  return under();
}

class PdfThread {
  private pending: { resolve: (reply: PdfReply) => void; reject: (err: Error) => void } | null = null;
  private exited = false;
  private stopped: ThreadStalled | null = null;

  private constructor(private readonly worker: Thread) {
    worker.on('message', (reply: PdfReply) => {
      const pending = this.pending;
      this.pending = null;
      pending?.resolve(reply);
    });
    // A crash or ERR_WORKER_OUT_OF_MEMORY: whatever was asked is abandoned.
    const died = (why: string) => {
      this.exited = true;
      this.fail(this.stopped ?? new ThreadStalled(why));
    };
    worker.on('error', (err) => died(err.message));
    worker.on('exit', () => died('the pdf.js thread exited'));
    worker.unref();
  }

  get alive(): boolean {
    return !this.exited;
  }

  /**
   * A started thread, ready for requests. `gone(thread)` is called once when it exits; a thread that
   * never got ready throws ReaderUnavailable instead.
   */
  static async start(gone: (thread: PdfThread) => void): Promise<PdfThread> {
    let worker: Thread;
    try {
      worker = await startThread('pdf-thread', new URL('./pdf-thread.ts', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      });
    } catch (err) {
      throw new ReaderUnavailable(`a pdf.js thread cannot be started: ${errorMessage(err)}`);
    }
    const thread = new PdfThread(worker);
    try {
      const ready = await thread.wait(THREAD_START_TIMEOUT_MS, false);
      if (ready.type !== 'ready') throw new ThreadStalled(`unexpected ${ready.type}`);
    } catch (err) {
      await thread.terminate();
      throw new ReaderUnavailable(`a pdf.js thread did not start: ${errorMessage(err)}`);
    }
    if (thread.exited) throw new ReaderUnavailable('a pdf.js thread exited as it started');
    worker.once('exit', () => gone(thread));
    return thread;
  }

  /** Sends one request and waits for its reply; on a timeout or a death the thread is terminated. */
  async ask(request: PdfRequest, timeoutMs: number, o: { alone?: boolean } = {}): Promise<PdfReply> {
    if (this.exited) throw new ThreadStalled('the pdf.js thread has exited');
    // Sessions hold a thread alone and await each reply; a second request would take the first's reply.
    if (this.pending) throw new Error('a pdf.js thread answers one request at a time');
    await memoryUnderLimit();
    while (soleRequest) await soleRequest;
    if (!o.alone) return this.send(request, timeoutMs);
    let done = () => {};
    soleRequest = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      while (working.size > 0) await new Promise((r) => setTimeout(r, MEMORY_POLL_MS));
      // Sent again only with room under the limit for the growth the watch blames, so that a page to
      // blame is stopped near the limit again, not that growth past it.
      if (!(await memoryUnderLimit(MEMORY_GROWTH_MB))) {
        await this.terminate();
        throw new ThreadStalled(
          `no room under the worker's ${settings.memoryLimitMb} MiB memory limit to read it again`,
        );
      }
      return await this.send(request, timeoutMs);
    } finally {
      soleRequest = null;
      done();
    }
  }

  private send(request: PdfRequest, timeoutMs: number): Promise<PdfReply> {
    if (this.exited) throw new ThreadStalled('the pdf.js thread has exited');
    const reply = this.wait(timeoutMs);
    try {
      this.worker.postMessage(request);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
    return reply;
  }

  async terminate(): Promise<void> {
    this.exited = true;
    await this.worker.terminate();
  }

  /**
   * Abandons the request in flight (a stall) and terminates the thread. Stopped for memory, the request
   * is abandoned once the thread has ended (a second at most: one blocked in native code ends later), so
   * that the next request, in a fresh thread, starts once this one's memory is given back.
   */
  stop(why: string, o: { forMemory?: boolean } = {}): void {
    if (this.exited) return;
    working.delete(this);
    // What the request is failed with, whether the thread's exit or the wait below comes first.
    const stopped = new ThreadStalled(why, o);
    this.stopped = stopped;
    const ended = this.terminate().catch(() => {});
    if (!o.forMemory) {
      this.fail(stopped);
      return;
    }
    void Promise.race([ended, new Promise((r) => setTimeout(r, 1_000))]).finally(() => this.fail(stopped));
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(err);
  }

  /** `watched`: a request, stopped if the process's memory goes over the limit; starting up is not. */
  private wait(timeoutMs: number, watched = true): Promise<PdfReply> {
    this.worker.ref();
    if (watched) {
      working.set(this, residentMb());
      watchMemory();
    }
    return new Promise<PdfReply>((resolve, reject) => {
      const timer = setTimeout(() => this.stop(`no answer within ${seconds(timeoutMs)}`), timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        working.delete(this);
        this.worker.unref();
      };
      this.pending = {
        resolve: (reply) => {
          settle();
          resolve(reply);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
      };
    });
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
