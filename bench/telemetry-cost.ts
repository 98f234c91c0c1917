// `npm run bench:telemetry`: what metrics and traces cost the API, measured side by side with them off.
// API processes of one throw-away stack, compiled as production runs them, differ only in telemetry:
// METRICS=off and no tracing (the baseline), METRICS=on, and METRICS=on with traces exported over OTLP/HTTP
// to a collector stand-in on this machine (it takes each batch and answers 200, as a collector does) at the
// default sampler (src/config.ts) and, where that keeps fewer than every trace, at 100% (always_on). Each
// is measured on reads (GET /v1/reviews/{id}, autocannon) and on small live creates (a one-page PDF, 10 at
// a time: the API streams each to the store and its workflow takes and records it; each round begins once
// the last one's reviews have settled), alternating with the baseline. No targets: the cost is reported
// (the ratio to the baseline, the API's CPU per request), not judged. A create's cost is the API process's CPU time per
// create: its throughput is set by the stack behind it (a create is a durable Postgres commit, a MinIO write
// and a Temporal start, on the same two cores), whose rounds spread 52–190 creates/s on either side, too
// wide to resolve a few percent; the throughputs are printed beside it.
// Every round starts its side's API process afresh and warms it the same way before measuring: one process
// of one build reads 2,300 to 4,000 req/s from one start to the next (its JIT and memory layout), a spread
// that a single process per setting would carry into the ratio whole. During reads the API process has a
// CPU to itself and autocannon another (taskset), as a production API has its own cores: sharing both with
// its load generator, a round's throughput followed the scheduler's luck as much as the API's cost.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { createSql, type Sql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { loadConfig } from '../src/config.js';
import { freePort } from '../scripts/stack/ports.js';
import { ensureCompiled, SERVICES } from '../scripts/compile.js';
import { startService } from '../scripts/stack/stack.js';
import { cpuSeconds, withThrowawayStack } from '../scripts/stack/throwaway.js';
import { traceCollector } from '../test/support/otlp.js';
import { alternate, report } from './side-by-side.js';

// Five rounds a side: the differences measured are a few percent, the machine's noise more.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const CREATES = Number(process.env.BENCH_CREATES ?? 150);
const CREATES_AT_ONCE = 10;
/** Reads that warm a fresh API process before a read round is measured. */
const WARM_SECONDS = 3;
/** Creates that warm a fresh API process before a create round is measured. */
const WARM_CREATES = 30;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** The sampler a process runs unless OTEL_TRACES_SAMPLER says otherwise, by its name; whether it keeps every trace. */
const DEFAULT_SAMPLER = (() => {
  const { root, parentBased, ratio } = loadConfig({}).telemetry.sampler;
  const name = `${parentBased ? 'parentbased_' : ''}${root}${root === 'traceidratio' ? ` ${ratio}` : ''}`;
  return { name, keepsEvery: root === 'always_on' || (root === 'traceidratio' && ratio >= 1) };
})();

/** Confines a process's threads to `cpus` (a taskset list: "0", "0-1"); false where it cannot be done. */
function pin(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A round of reads: its throughput, and the API process's CPU microseconds per request. */
async function readRound(
  url: string,
  pid: number,
  key: string,
): Promise<{ perSecond: number; cpuUs: number; requests: number }> {
  const cpu = await cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: auth(key),
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} of ${result.requests.total} requests failed`);
  return {
    requests: result.requests.total,
    // autocannon stops at its first one-second tick past the duration: a round lasts 10 to 11 s, and its
    // requests are those of all of it.
    perSecond: result.requests.total / result.duration,
    cpuUs: (((await cpuSeconds(pid)) - cpu) * 1e6) / result.requests.total,
  };
}

/**
 * Waits until every review of the stack has settled (its analysis done): the runs of
 * one round's creates must not share the machine with the next round's.
 */
async function settled(sql: Sql): Promise<void> {
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    const [busy] = await sql<{ n: number }[]>`
      select count(*)::int as n from reviews
       where internal_state not in ('awaiting_documents', 'released', 'failed')`;
    if (busy!.n === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the reviews of the last round did not settle within 2 minutes');
}

/** A round of creates: its throughput, and the API process's CPU milliseconds per create. */
async function createRound(
  api: string,
  pid: number,
  key: string,
  pdf: Uint8Array,
  sql: Sql,
  creates = CREATES,
): Promise<{ perSecond: number; cpuMs: number }> {
  await settled(sql);
  let next = 0;
  const cpu = await cpuSeconds(pid);
  const started = performance.now();
  const lane = async () => {
    while (next < creates) {
      next++;
      const body = new FormData();
      body.append('documents', new Blob([pdf], { type: 'application/pdf' }), 'letter.pdf');
      const res = await fetch(`${api}/reviews`, { method: 'POST', headers: auth(key), body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CREATES_AT_ONCE }, lane));
  const perSecond = creates / ((performance.now() - started) / 1000);
  return { perSecond, cpuMs: (((await cpuSeconds(pid)) - cpu) * 1000) / creates };
}

async function main() {
  // A collector stand-in for each traced setting: what each sent is counted apart.
  const otlp = await traceCollector();
  const otlpEvery = await traceCollector();
  const doc = await PDFDocument.create();
  doc.addPage().drawText('A letter of explanation.');
  const pdf = await doc.save();
  try {
    await withThrowawayStack({ durable: true, compiled: true, log: () => {} }, async ({ stack, dir }) => {
      const sql = createSql(stack.config, { max: 1 });
      const [org] = await sql<{ id: string }[]>`select id from organizations limit 1`;
      await sql`update organizations set rate_limit_per_minute = 100000000 where id = ${org!.id}`;
      const { key } = await createApiKey(sql, { organizationId: org!.id, sandbox: false });
      const compiled = await ensureCompiled(SERVICES);
      const variants = {
        off: { METRICS: 'off' },
        metrics: { METRICS: 'on' },
        traced: { METRICS: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url },
        every: { METRICS: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: otlpEvery.url, OTEL_TRACES_SAMPLER: 'always_on' },
      };
      type Variant = keyof typeof variants;
      /** A fresh API process of `name`'s setting, once ready (on `cpu` alone, if given): its URL and pid. */
      const launch = async (name: Variant, cpu?: string) => {
        const port = await freePort();
        const child = startService(
          stack.supervisor,
          'api',
          { ...stack.apiServiceEnv, ...variants[name], PORT: String(port), OPS_PORT: String(await freePort()) },
          join(dir, 'logs'),
          false,
          `api-${name}-${port}`,
          { compiled: compiled.files },
        );
        for (let i = 0; ; i++) {
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
          if (ready?.status === 200) break;
          if (i > 600) throw new Error(`api-${name} never ready`);
          await new Promise((r) => setTimeout(r, 100));
        }
        if (cpu !== undefined && !pin(child.process.pid!, cpu))
          throw new Error(`api-${name}: cannot pin to CPU ${cpu}`);
        return {
          url: `http://127.0.0.1:${port}/v1`,
          pid: child.process.pid!,
          stop: () => stack.supervisor.stop(child),
        };
      };
      // A review to read: one create through the baseline.
      const body = new FormData();
      body.append('documents', new Blob([pdf], { type: 'application/pdf' }), 'letter.pdf');
      const first = await launch('off');
      const created = await fetch(`${first.url}/reviews`, { method: 'POST', headers: auth(key), body });
      const { review_id: id } = (await created.json()) as { review_id: string };
      await first.stop();

      const tracedReads = { traced: 0, every: 0 };
      // Reads: the API on CPU 0, this process (autocannon, the collector stand-in) on the last; the stack's
      // servers where the scheduler puts them. Without two CPUs or taskset, as they come.
      const last = availableParallelism() - 1;
      const pinned = last >= 1 && pin(process.pid, String(last));
      const placement = pinned
        ? `the API process alone on CPU 0, autocannon on CPU ${last}`
        : 'processes unpinned (one CPU, or no taskset)';
      const settings: readonly (readonly [Variant, string])[] = [
        ['metrics', 'metrics on'],
        ['traced', 'metrics on, traces exported'],
        ...(DEFAULT_SAMPLER.keepsEvery ? [] : [['every', 'metrics on, every trace exported'] as const]),
      ];
      const samplerNote = (variant: Variant) =>
        variant === 'traced'
          ? [
              `traces at the default sampler, ${DEFAULT_SAMPLER.name}` +
                (DEFAULT_SAMPLER.keepsEvery ? ': every trace, the figure at 100% too' : ''),
            ]
          : variant === 'every'
            ? ['every trace (OTEL_TRACES_SAMPLER=always_on)']
            : [];
      // Reads first: the creates leave reviews the workers then analyse, which would share the machine.
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
      for (const [variant, label] of settings) {
        // The API's own CPU a read costs, beside the throughput: the rounds' throughput moves with what
        // else the two cores run (autocannon, Postgres), its CPU per request far less.
        const cpu = { here: [] as number[], plain: [] as number[] };
        const measure = (side: 'here' | 'plain', which: Variant) => async () => {
          const api = await launch(which, pinned ? '0' : undefined);
          const url = `${api.url}/reviews/${id}`;
          const warm = await autocannon({ url, connections: CONNECTIONS, duration: WARM_SECONDS, headers: auth(key) });
          const round = await readRound(url, api.pid, key);
          if (which === 'traced' || which === 'every') tracedReads[which] += warm.requests.total + round.requests;
          await api.stop();
          cpu[side].push(round.cpuUs);
          return round.perSecond;
        };
        const reads = await alternate(
          ROUNDS,
          { label, measure: measure('here', variant) },
          { label: 'metrics off, no traces', measure: measure('plain', 'off') },
        );
        report({
          what: `GET /v1/reviews/{id}, ${label}`,
          unit: 'req/s',
          higherIsBetter: true,
          ...reads,
          notes: [
            ...samplerNote(variant),
            `autocannon -c${CONNECTIONS} -d${SECONDS}; the same stack, a fresh API process a round, ` +
              `warmed ${WARM_SECONDS} s; ${placement}`,
            `API CPU per read: ${median(cpu.here).toFixed(0)} µs (${spread(cpu.here)}) against ` +
              `${median(cpu.plain).toFixed(0)} µs (${spread(cpu.plain)}): ` +
              `${(median(cpu.plain) / median(cpu.here)).toFixed(2)} of the baseline's requests a CPU second`,
          ],
        });
      }
      // Creates: every process on every CPU again (the runs they start are analysed meanwhile).
      if (pinned) pin(process.pid, `0-${last}`);
      for (const [variant, label] of settings) {
        const throughput = { here: [] as number[], plain: [] as number[] };
        const measure = (side: 'here' | 'plain', which: Variant) => async () => {
          const api = await launch(which);
          await createRound(api.url, api.pid, key, pdf, sql, WARM_CREATES);
          const round = await createRound(api.url, api.pid, key, pdf, sql);
          await api.stop();
          throughput[side].push(round.perSecond);
          return round.cpuMs;
        };
        const creates = await alternate(
          ROUNDS,
          { label, measure: measure('here', variant) },
          { label: 'metrics off, no traces', measure: measure('plain', 'off') },
        );
        report({
          what: `API CPU per small live create, ${label}`,
          unit: 'ms',
          higherIsBetter: false,
          ...creates,
          notes: [
            ...samplerNote(variant),
            `${CREATES} one-page multipart creates, ${CREATES_AT_ONCE} at a time, by a fresh API process ` +
              `after ${WARM_CREATES}; the process's CPU until they were answered`,
            `creates/s: ${median(throughput.here).toFixed(0)} (${spread(throughput.here)}) against ` +
              `${median(throughput.plain).toFixed(0)} ` +
              `(${spread(throughput.plain)})`,
          ],
        });
      }
      await sql.end();
      // What was sent is what a collector reads: the read and create spans the traced processes exported.
      for (const [variant, collector, what] of [
        ['traced', otlp, `the default sampler (${DEFAULT_SAMPLER.name})`],
        ['every', otlpEvery, 'always_on'],
      ] as const) {
        if (!settings.some(([v]) => v === variant)) continue;
        const spans = collector.spans();
        const reads = spans.filter((s) => s.service === 'loan-review-api' && s.name === 'GET /v1/reviews/:review_id');
        const creates = spans.filter((s) => s.name === 'POST /v1/reviews').length;
        console.error(
          `# at ${what}: ${reads.length} read spans of ${tracedReads[variant]} traced reads, ` +
            `${creates} create spans, in ${collector.requests.length} trace batches`,
        );
        // Where every trace is kept, none arriving is a broken export, not a cost.
        const keepsEvery = variant === 'every' || DEFAULT_SAMPLER.keepsEvery;
        if (keepsEvery && (reads.length === 0 || creates === 0))
          throw new Error(`the collector received no request spans at ${what}`);
      }
    });
  } finally {
    await Promise.all([otlp.close(), otlpEvery.close()]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
