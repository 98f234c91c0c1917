// The memory watch on pdf.js threads (reading/pdf-threads.ts): a page whose decoding takes the process
// over its memory limit is stopped and illegible. A file of its own: the process keeps memory a stopped
// thread held, and other tests' budgets must not be read in a process left so large.
import test from 'ava';
import { configurePdfThreads, readPdf, terminatePdfThreads } from '../../src/qc/reading/pdf-threads.js';
import { hostilePdfs } from '../support/hostile-files.js';
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
