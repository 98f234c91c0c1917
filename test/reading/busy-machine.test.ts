// A page is illegible only for its content, never because the machine is busy. OCR's time limit counts the
// recognition's own CPU time: a tesseract run that waits for a core (here: stopped outright for longer than
// the limit, then let go) reads its page whole. And with both cores saturated by other processes, a scanned
// form reads the same fields as on a quiet machine, with no page called illegible.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { analyseFile } from '../../src/qc/logical-documents.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { configureOcr, ocrImage, ocrEngine, terminateOcr } from '../../src/qc/reading/ocr.js';
import { terminatePdfThreads } from '../../src/qc/reading/pdf-threads.js';
import { spawnerPid } from '../../src/runtime/spawner.js';
import { withCoresSaturated } from '../support/machine-load.js';
import { drawScan } from '../support/scan-image.js';
import { statFieldsAfterCommand } from '../../src/runtime/proc-stat.js';

test.after.always(async () => {
  await terminateOcr();
  await terminatePdfThreads();
});

/** The pids of the tesseract runs this process has started (by way of its process helper) running now. */
async function tesseractChildren(): Promise<number[]> {
  const helper = await spawnerPid();
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(statFieldsAfterCommand(stat)[1]);
      return comm === 'tesseract' && ppid === helper ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Serial: the shortened limit must not meet the other test's pages.
test.serial('a tesseract run stopped for longer than the page limit, then let go, reads its page whole', async (t) => {
  if ((await ocrEngine()) !== 'native') return t.pass('only native tesseract runs as a process of its own');
  const previous = configureOcr({ pageTimeoutMs: 3_000 });
  try {
    const lines = ['CLOSING DISCLOSURE', 'Loan Amount $162,000', 'Interest Rate 3.875%'];
    const page = drawScan(
      Array.from({ length: 14 }, (_, i) => lines[i % lines.length]!),
      3000,
    );
    const reading = ocrImage(page.png, 'image/png');
    let stopped = 0;
    const held = (async () => {
      for (const until = Date.now() + 30_000; Date.now() < until && stopped === 0; await sleep(5)) {
        for (const pid of await tesseractChildren()) {
          process.kill(pid, 'SIGSTOP');
          stopped++;
          // Twice the limit in wall time, spending no CPU at all: as a page waits on a machine at load 20.
          await sleep(6_000);
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            // Gone already: it was killed while held, which the reading below shows.
          }
        }
      }
    })();
    const read = await reading;
    await held;
    t.true(stopped > 0, 'a tesseract run was held');
    if (!read.readable) return t.fail(read.reason);
    const [text] = read.pages;
    t.true(text!.text.includes('CLOSING DISCLOSURE'), JSON.stringify(text!.text.slice(0, 80)));
    t.true((text!.confidence ?? 0) > 60);
  } finally {
    configureOcr(previous);
  }
});

test.serial('with both cores saturated by other processes, a scanned form reads as on a quiet machine', async (t) => {
  t.timeout(900_000);
  const scan = readFileSync(new URL('../corpus/public-docs/scans/le_sample_fixed_rate_h24b_scan.pdf', import.meta.url));
  const read = async () => {
    const { documents } = await analyseFile('le-scan.pdf', 'application/pdf', scan, tesseractOcr);
    return documents.map((d) => ({
      documentClass: d.documentClass,
      confidence: d.pages.map((p) => (p.confidence ?? 0) > 0),
      fields: JSON.stringify(d.fields, (k, v) => (k === 'box' ? undefined : v)),
    }));
  };
  const quiet = await read();
  // At the readers' own priority: the rest of the test suite, running beside this file, keeps its share.
  const loaded = await withCoresSaturated(read);
  t.deepEqual(loaded, quiet);
  t.true(
    quiet.every((d) => d.confidence.every(Boolean)),
    'every page legible',
  );
});
