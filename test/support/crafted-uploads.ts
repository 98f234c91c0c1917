// The crafted uploads of the API's hostile-upload test and benchmark, their same-size twins, and the
// measures of the API's event loop: what a careless parser would spend seconds of CPU and hundreds of MiB
// on, against bytes of the same sizes that no parser would linger over. The API is to stream both alike.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpuSeconds, memoryMiB } from '../../scripts/stack/throwaway.js';
import { zip } from './fixtures.js';
import { emptyBlocksPdf, xrefBombPdf } from './hostile-files.js';
import { parseScrape } from './prometheus.js';

const MiB = 1024 * 1024;

export interface Upload {
  name: string;
  data: Buffer;
}

/**
 * An 8 MiB PDF of empty deflate blocks, a zip of three 25 MiB such PDFs padded (by a stored incompressible
 * member) so that its expansion stays under 10 ×, and a 1 MiB PDF whose cross-reference stream inflates
 * to 1 GiB.
 */
export async function craftedUploads(): Promise<Upload[]> {
  const bigEmpty = emptyBlocksPdf(25 * MiB - 4096);
  const padded = await zip([
    { name: 'a.pdf', data: bigEmpty },
    { name: 'b.pdf', data: Buffer.concat([bigEmpty, Buffer.from('%b\n')]) },
    { name: 'c.pdf', data: Buffer.concat([bigEmpty, Buffer.from('%c\n')]) },
    { name: 'pad.pdf', data: Buffer.concat([Buffer.from('%PDF-1.7\n%'), randomBytes(9 * MiB)]), compress: false },
  ]);
  return [
    { name: 'empty-blocks.pdf', data: emptyBlocksPdf(8 * MiB) },
    { name: 'padded.zip', data: padded },
    { name: 'xref-bomb.pdf', data: await xrefBombPdf() },
  ];
}

/**
 * For each upload, one of the same name and size whose content is a PDF header and random bytes (a zip's
 * twin: a zip of one such member, stored): the same bytes to stream, nothing for a parser to inflate.
 */
export async function sameSizeTwins(uploads: Upload[]): Promise<Upload[]> {
  const randomPdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n%'), randomBytes(Math.max(0, size - 10))]);
  return Promise.all(
    uploads.map(async (u) => {
      if (!u.name.endsWith('.zip')) return { name: u.name, data: randomPdf(u.data.length) };
      // A zip's headers and central directory for one member cost about 100 bytes beside its data.
      return {
        name: u.name,
        data: await zip([{ name: 'a.pdf', data: randomPdf(u.data.length - 100), compress: false }]),
      };
    }),
  );
}

/** prom-client's sampling interval of the event loop (its eventLoopMonitoringPrecision, by default). */
const SAMPLING_MS = 10;

/**
 * The API's event-loop delay since its last scrape (prom-client resets it at each), in ms: how late its
 * sampling timer fired, so an idle loop's delay is 0 (monitorEventLoopDelay reports the interval with it).
 */
export async function loopDelay(metricsUrl: string): Promise<{ p99: number; max: number }> {
  const { samples } = parseScrape(await (await fetch(metricsUrl)).text());
  const value = (name: string) => (samples.find((s) => s.name === name)?.value ?? Number.NaN) * 1000 - SAMPLING_MS;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

/**
 * An idle process that samples its event loop as prom-client does, until stopped: what the machine's load
 * alone does to a loop's delay over the same interval (p99 beyond its sampling interval, ms).
 */
export function idleLoop(): { stop: () => Promise<number> } {
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

/** What one round of uploads cost the API, and what the reader and the creates got. */
export interface UploadRound {
  /** The API process's CPU time (s) from the first upload until the last answer. */
  cpu: number;
  answers: { name: string; status: number; text: string; seconds: number }[];
  reads: { status: number; ms: number }[];
  /** The API's event-loop delay over the round (ms beyond its sampling interval), and an idle process's p99. */
  loop: { p99: number; max: number };
  idle: number;
  rss: { before: number; peak: number };
}

/**
 * Sends the uploads at once (`create` sends one) while another organization reads every 100 ms (`read`
 * sends one and answers its status), measuring the API process meanwhile: its CPU time, its RSS (sampled
 * every 50 ms), its event-loop delay (from its metrics) and an idle process's beside it.
 */
export async function uploadRound(o: {
  pid: number;
  metricsUrl: string;
  uploads: Upload[];
  create: (upload: Upload) => Promise<{ status: number; text: string }>;
  read: () => Promise<number>;
}): Promise<UploadRound> {
  const before = await memoryMiB(o.pid);
  let peak = before;
  const sampling = setInterval(() => {
    void memoryMiB(o.pid).then(
      (m) => (peak = Math.max(peak, m)),
      () => {},
    );
  }, 50);
  let reading = true;
  const reads: UploadRound['reads'] = [];
  const reader = (async () => {
    while (reading) {
      const started = performance.now();
      const status = await o.read();
      reads.push({ status, ms: performance.now() - started });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await loopDelay(o.metricsUrl);
  const control = idleLoop();
  const cpuBefore = await cpuSeconds(o.pid);
  const started = performance.now();
  const answers = await Promise.all(
    o.uploads.map(async (upload) => ({
      name: upload.name,
      ...(await o.create(upload)),
      seconds: (performance.now() - started) / 1000,
    })),
  );
  reading = false;
  await reader;
  const cpu = (await cpuSeconds(o.pid)) - cpuBefore;
  clearInterval(sampling);
  const loop = await loopDelay(o.metricsUrl);
  const idle = await control.stop();
  return { cpu, answers, reads, loop, idle, rss: { before, peak } };
}
