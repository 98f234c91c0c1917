// The memory watch on pdf.js threads (reading/pdf-threads.ts): a page whose decoding takes the process
// over its memory limit is stopped and illegible; a page read beside it is read. A file of its own: the
// process keeps memory a stopped thread held, and other tests' budgets must not be read in a process left
// so large.
import test from 'ava';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import {
  configurePdfThreads,
  pdfRequestsInFlight,
  readPdf,
  requestsStoppedForMemory,
  terminatePdfThreads,
} from '../../src/qc/reading/pdf-threads.js';
import { hostilePdfs, rawPdf } from '../support/hostile-files.js';
import { memoryMiB } from '../../scripts/stack/throwaway.js';

test.after.always(() => terminatePdfThreads());

test.serial(
  'a page whose decoding takes the process over the memory limit is illegible, and the process stays near the limit',
  async (t) => {
    // pdf.js holds decoded streams outside the thread's heap ceiling: only the watch on the process's
    // memory stops this page, whose content stream inflates to 384 MiB (some 800 MiB more without it; the
    // watch polls every 20 ms, later on a loaded machine, so the process may pass the limit a little).
    const bytes = hostilePdfs.flateBombBetween(384);
    await readPdf(hostilePdfs.scripted()); // a thread with pdf.js loaded: the limit counts the page alone
    // Above the growth a request must add to be stopped (256 MiB), so that the limit is what stops it.
    const limit = Math.round(process.memoryUsage.rss() / (1024 * 1024)) + 400;
    const peakBefore = await memoryMiB(process.pid, 'VmHWM');
    const previous = configurePdfThreads({ memoryLimitMb: limit, pageTimeoutMs: 120_000, fileTimeoutMs: 300_000 });
    try {
      const read = await readPdf(bytes);
      if (!read.readable) return t.fail(read.reason);
      t.deepEqual(
        read.pages.slice(0, 2).map((p) => [p.number, p.source, p.confidence]),
        [
          [1, 'text_layer', null],
          [2, 'ocr', 0],
        ],
      );
      t.regex(read.pages[0]!.text, /Loan Amount \$162,000/);
      // Page 3 is read in a fresh thread if the memory left allows one (a stopped thread does not give all
      // of its memory back at once); either way it is a page of the result, not the worker's end.
      t.is(read.pages.length, 3);
      const peak = await memoryMiB(process.pid, 'VmHWM');
      t.log(`limit ${limit} MiB, peak ${peak.toFixed(0)} MiB (before ${peakBefore.toFixed(0)})`);
      t.true(peak <= Math.max(peakBefore, limit + 256), `peak ${peak.toFixed(0)} MiB`);
    } finally {
      configurePdfThreads(previous);
    }
  },
);

/** A page of `runs` one-letter text runs after its heading: seconds of pdf.js's work. */
function slowPage(heading: string, runs: number): Buffer {
  const ops = [`BT /F1 12 Tf 72 720 Td (${heading}) Tj ET`];
  for (let i = 0; i < runs; i++)
    ops.push(`BT /F1 1 Tf ${20 + (i % 500)} ${40 + (Math.floor(i / 500) % 600)} Td (x) Tj ET`);
  const content = deflateSync(ops.join('\n'));
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Filter /FlateDecode /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** A thread of this process that fills `mib` MiB when told, and holds them until it is terminated. */
async function memoryHog(mib: number): Promise<{ fill: () => Promise<void>; thread: Worker }> {
  const thread = new Worker(
    `const { parentPort } = require('node:worker_threads');
     let held;
     parentPort.on('message', () => { held = Buffer.alloc(${mib} * 1024 * 1024, 1); parentPort.postMessage('held'); });`,
    { eval: true },
  );
  await once(thread, 'online');
  return {
    thread,
    fill: async () => {
      thread.postMessage('fill');
      await once(thread, 'message');
    },
  };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

test.serial(
  "a page read while another's memory takes the process over the limit is stopped, sent again alone and read",
  async (t) => {
    await readPdf(hostilePdfs.scripted()); // a thread with pdf.js loaded
    const limit = Math.round(process.memoryUsage.rss() / (1024 * 1024)) + 300;
    const previous = configurePdfThreads({ memoryLimitMb: limit, pageTimeoutMs: 120_000, fileTimeoutMs: 300_000 });
    const hog = await memoryHog(400);
    try {
      const stops = requestsStoppedForMemory();
      // The page is being read when another thread of the process (a file to blame) takes 400 MiB: the
      // watch cannot tell which grew, and stops the page.
      const reading = readPdf(slowPage('Closing Disclosure', 100_000));
      await until(() => pdfRequestsInFlight() > 0);
      await hog.fill();
      await until(() => requestsStoppedForMemory() > stops);
      // The other thread ends and gives its memory back: the page is sent again, alone, and read.
      await hog.thread.terminate();
      const read = await reading;
      if (!read.readable) return t.fail(read.reason);
      t.is(requestsStoppedForMemory(), stops + 1);
      t.is(read.pages[0]!.source, 'text_layer');
      t.regex(read.pages[0]!.text, /^Closing Disclosure/);
    } finally {
      await hog.thread.terminate();
      configurePdfThreads(previous);
    }
  },
);
