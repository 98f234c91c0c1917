// The API parses no caller's file: crafted uploads that cost a careless parser seconds of CPU and
// hundreds of MiB (an 8 MiB PDF of empty deflate blocks, a zip of three 25 MiB such PDFs padded to pass
// the expansion limit, a 1 MiB PDF whose cross-reference stream inflates to 1 GiB) go through the API as
// bytes streamed to the store, and the worker's scan judges each no working document of ours within its
// budget. Meanwhile the API's event loop stays free (measured in the API process, by its own metrics:
// prom-client's monitorEventLoopDelay, reset at each scrape, against an idle process's over the same
// interval, so that what is measured is the API's own work and not the machine's load), its memory stays
// flat, and another organization's reads are answered.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { freePort } from '../../scripts/stack/ports.js';
import { memoryMiB } from '../../scripts/stack/throwaway.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { call, createBody, form } from '../support/http.js';
import { pdf, zip } from '../support/fixtures.js';
import { emptyBlocksPdf, xrefBombPdf } from '../support/hostile-files.js';
import { onThisMachine } from '../support/machine-load.js';
import { parseScrape } from '../support/prometheus.js';
import { waitForReview } from '../support/reviews.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization } from '../support/stack.js';

const MiB = 1024 * 1024;
const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

/** prom-client's sampling interval of the event loop (its eventLoopMonitoringPrecision, by default). */
const SAMPLING_MS = 10;

/**
 * The API's event-loop delay since its last scrape (prom-client resets it at each), in ms: how late its
 * sampling timer fired, so an idle loop's delay is 0 (monitorEventLoopDelay reports the interval with it).
 */
async function loopDelay(opsUrl: string): Promise<{ p99: number; max: number }> {
  const { samples } = parseScrape(await (await fetch(opsUrl)).text());
  const value = (name: string) => (samples.find((s) => s.name === name)?.value ?? Number.NaN) * 1000 - SAMPLING_MS;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

/**
 * An idle process that samples its event loop as prom-client does, until stopped: what the machine's load
 * alone does to a loop's delay over the same interval (p99 beyond its sampling interval, ms).
 */
function idleLoop(): { stop: () => Promise<number> } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: ${SAMPLING_MS} }); h.enable();` +
        `process.stdin.resume(); process.stdin.on('end', () => console.log(h.percentile(99) / 1e6));`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  return {
    stop: async () => {
      child.stdin.end();
      await once(child, 'exit');
      return Number(out.trim()) - SAMPLING_MS;
    },
  };
}

test(
  'crafted uploads are streamed, never parsed, by the API: its event loop p99 stays within 50 ms (of an ' +
    "idle loop's on the same machine) and its RSS " +
    'within 64 MiB while they are handled, another organization reads meanwhile, and the worker judges ' +
    'each no working document within its scan budget',
  async (t) => {
    const opsPort = await freePort();
    const api = await services.api({ METRICS: 'on', OPS_HOST: '127.0.0.1', OPS_PORT: String(opsPort) });
    const ops = `http://127.0.0.1:${opsPort}/metrics`;
    const pid = api.child.process.pid!;
    const attacker = await newOrganization();
    // Its reads every 100 ms for as long as the uploads take: more than the default 60 a minute.
    const bystander = await newOrganization({ rateLimitPerMinute: 100_000 });

    // Made before anything is measured: building them is this process's work, not the API's.
    const emptyBlocks = emptyBlocksPdf(8 * MiB);
    const bigEmpty = emptyBlocksPdf(25 * MiB - 4096);
    const padded = await zip([
      { name: 'a.pdf', data: bigEmpty },
      { name: 'b.pdf', data: Buffer.concat([bigEmpty, Buffer.from('%b\n')]) },
      { name: 'c.pdf', data: Buffer.concat([bigEmpty, Buffer.from('%c\n')]) },
      // Stored, incompressible: it raises the package's size so that its expansion stays under 10 ×.
      {
        name: 'pad.pdf',
        data: Buffer.concat([Buffer.from('%PDF-1.7\n%'), randomBytes(9 * MiB)]),
        compress: false,
      },
    ]);
    const xrefBomb = await xrefBombPdf();
    t.log(`sizes: ${[emptyBlocks, padded, xrefBomb].map((b) => (b.length / MiB).toFixed(1)).join(', ')} MiB`);

    // The bystander's review, and one warm-up create and read of each organization.
    const mine = await call(api.url, 'POST', '/reviews', { key: bystander.liveKey, json: createBody() });
    t.is(mine.status, 201, mine.text);
    const mineId = ReviewSchema.parse(mine.body).review_id;
    const warm = await call(api.url, 'POST', '/reviews', {
      key: attacker.liveKey,
      form: form([{ name: 'warm.pdf', data: await pdf('Closing Disclosure') }]),
    });
    t.is(warm.status, 201, warm.text);

    const baseline = await memoryMiB(pid);
    await loopDelay(ops);
    const control = idleLoop();
    let peak = baseline;
    const sampling = setInterval(() => {
      void memoryMiB(pid).then(
        (m) => (peak = Math.max(peak, m)),
        () => {},
      );
    }, 50);
    // The bystander reads throughout; each read is timed.
    let reading = true;
    const reads: { status: number; ms: number }[] = [];
    const reader = (async () => {
      while (reading) {
        const started = performance.now();
        const res = await call(api.url, 'GET', `/reviews/${mineId}`, { key: bystander.liveKey });
        reads.push({ status: res.status, ms: performance.now() - started });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const started = performance.now();
    const answers = await Promise.all(
      [
        { name: 'empty-blocks.pdf', data: emptyBlocks },
        { name: 'padded.zip', data: padded },
        { name: 'xref-bomb.pdf', data: xrefBomb },
      ].map(async (file) => {
        const res = await call(api.url, 'POST', '/reviews', { key: attacker.liveKey, form: form([file]) });
        return { name: file.name, status: res.status, text: res.text, seconds: (performance.now() - started) / 1000 };
      }),
    );
    reading = false;
    await reader;
    clearInterval(sampling);
    const delay = await loopDelay(ops);
    const idle = await control.stop();

    t.log(
      `answers: ${answers.map((a) => `${a.name} ${a.status} after ${a.seconds.toFixed(1)} s`).join('; ')}; ` +
        `API loop p99 ${delay.p99.toFixed(1)} ms (an idle process's ${idle.toFixed(1)} ms), max ` +
        `${delay.max.toFixed(1)} ms; RSS ${baseline.toFixed(0)} → ` +
        `${peak.toFixed(0)} MiB; ${reads.length} reads, slowest ${Math.max(...reads.map((r) => r.ms)).toFixed(0)} ms`,
    );
    // Each is taken as an ordinary document: the scan finds it past its budget, so no parse follows.
    for (const a of answers) t.is(a.status, 201, `${a.name}: ${a.text}`);
    // The API's own share: its p99 beyond what the machine's load gave an idle loop meanwhile.
    t.true(delay.p99 - Math.max(0, idle) <= 50, `event loop p99 ${delay.p99} ms, an idle one's ${idle} ms`);
    t.true(peak - baseline <= 64, `RSS grew ${(peak - baseline).toFixed(0)} MiB`);
    const refused = reads.filter((r) => r.status !== 200).map((r) => r.status);
    t.true(reads.length > 0 && refused.length === 0, `every read answered 200, not ${refused.join(', ')}`);
    t.true(
      reads.every((r) => r.ms < onThisMachine(1_000)),
      `reads took up to ${Math.max(...reads.map((r) => r.ms)).toFixed(0)} ms`,
    );
    // Each crafted create settles like any unreadable upload, never hangs the worker.
    for (const a of answers) {
      const id = ReviewSchema.parse(JSON.parse(a.text)).review_id;
      const settled = await waitForReview(
        attacker.liveKey,
        id,
        (r) => ['failed', 'awaiting_documents', 'completed'].includes(r.status),
        300_000,
        api.url,
      );
      t.true(['failed', 'awaiting_documents', 'completed'].includes(settled.status), `${a.name}: ${settled.status}`);
    }
  },
);
