// `npm run bench:telemetry`: what metrics and traces cost the API, measured side by side with them off.
// Three API processes of one throw-away stack, compiled as production runs them, differ only in telemetry:
// METRICS=off and no tracing (the baseline), METRICS=on, and METRICS=on with every trace exported over
// OTLP/HTTP to a collector stand-in on this machine (it takes each batch and answers 200, as a collector
// does). Each is measured on reads (GET /v1/reviews/{id}, autocannon) and on small live creates (a
// one-page PDF, 10 at a time: the API records each and answers, the run starts after; each round begins
// once the last one's reviews have settled), alternating with the baseline. Targets: ≥ 0.95 × the
// baseline with metrics on, ≥ 0.85 with traces exported. A create's cost is the API process's CPU time per
// create: its throughput is set by the stack behind it (a create is a durable Postgres commit, a MinIO write
// and a Temporal start, on the same two cores), whose rounds spread 52–190 creates/s on either side, too
// wide to resolve a few percent; the throughputs are printed beside it.
import autocannon from 'autocannon';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { createSql, type Sql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { freePort } from '../scripts/stack/ports.js';
import { ensureCompiled, SERVICES } from '../scripts/compile.js';
import { startService } from '../scripts/stack/stack.js';
import { cpuSeconds, withThrowawayStack } from '../scripts/stack/throwaway.js';
import { alternate, report } from './side-by-side.js';

// Five rounds a side: the differences measured are a few percent, the machine's noise more.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const CREATES = Number(process.env.BENCH_CREATES ?? 150);
const CREATES_AT_ONCE = 10;

/** A round of reads: its throughput, and the API process's CPU microseconds per request. */
async function readRound(url: string, pid: number, key: string): Promise<{ perSecond: number; cpuUs: number }> {
  const cpu = await cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}` },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} of ${result.requests.total} requests failed`);
  return {
    perSecond: result.requests.total / SECONDS,
    cpuUs: (((await cpuSeconds(pid)) - cpu) * 1e6) / result.requests.total,
  };
}

/**
 * Waits until every review of the stack has settled (its run started and its analysis done): the runs of
 * one round's creates must not share the machine with the next round's.
 */
async function settled(sql: Sql): Promise<void> {
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    const [busy] = await sql<{ n: number }[]>`
      select count(*)::int as n from reviews
       where run_pending_since is not null or internal_state not in ('awaiting_documents', 'released', 'failed')`;
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
): Promise<{ perSecond: number; cpuMs: number }> {
  await settled(sql);
  let next = 0;
  const cpu = await cpuSeconds(pid);
  const started = performance.now();
  const lane = async () => {
    while (next < CREATES) {
      next++;
      const body = new FormData();
      body.append('documents', new Blob([pdf], { type: 'application/pdf' }), 'letter.pdf');
      const res = await fetch(`${api}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CREATES_AT_ONCE }, lane));
  const perSecond = CREATES / ((performance.now() - started) / 1000);
  // The runs a create starts after its answer are started by the API too: its CPU counts until they have.
  await settled(sql);
  return { perSecond, cpuMs: (((await cpuSeconds(pid)) - cpu) * 1000) / CREATES };
}

/** A collector stand-in: takes OTLP/HTTP batches and answers 200; counts them. */
async function collector(): Promise<{ url: string; batches: () => number; close: () => void }> {
  let batches = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/traces') batches++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    batches: () => batches,
    close: () => server.close(),
  };
}

async function main() {
  const otlp = await collector();
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
      };
      const apis: Record<keyof typeof variants, string> = { off: '', metrics: '', traced: '' };
      const pids: Record<keyof typeof variants, number> = { off: 0, metrics: 0, traced: 0 };
      for (const [name, env] of Object.entries(variants) as [keyof typeof variants, Record<string, string>][]) {
        const port = await freePort();
        const api = startService(
          stack.supervisor,
          'api',
          { ...stack.apiServiceEnv, ...env, PORT: String(port), OPS_PORT: String(await freePort()) },
          join(dir, 'logs'),
          false,
          `api-${name}`,
          { compiled: compiled.files },
        );
        apis[name] = `http://127.0.0.1:${port}/v1`;
        pids[name] = api.process.pid!;
        for (let i = 0; ; i++) {
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
          if (ready?.status === 200) break;
          if (i > 600) throw new Error(`api-${name} never ready`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      // A review to read: one create through the baseline.
      const body = new FormData();
      body.append('documents', new Blob([pdf], { type: 'application/pdf' }), 'letter.pdf');
      const created = await fetch(`${apis.off}/reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body,
      });
      const { review_id: id } = (await created.json()) as { review_id: string };

      const settings = [
        ['metrics', 'metrics on', 0.95],
        ['traced', 'metrics on, traces exported', 0.85],
      ] as const;
      // Reads first: the creates leave reviews the workers then analyse, which would share the machine.
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
      for (const [variant, label, target] of settings) {
        // The API's own CPU a read costs, beside the throughput: the rounds' throughput moves with what
        // else the two cores run (autocannon, Postgres), its CPU per request far less.
        const cpu = { here: [] as number[], plain: [] as number[] };
        const measure = (side: 'here' | 'plain', which: keyof typeof variants) => async () => {
          const round = await readRound(`${apis[which]}/reviews/${id}`, pids[which], key);
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
          target,
          notes: [
            `autocannon -c${CONNECTIONS} -d${SECONDS}; the same stack, an API process per setting`,
            `API CPU per read: ${median(cpu.here).toFixed(0)} µs (${spread(cpu.here)}) against ` +
              `${median(cpu.plain).toFixed(0)} µs (${spread(cpu.plain)}): ` +
              `${(median(cpu.plain) / median(cpu.here)).toFixed(2)} of the baseline's requests a CPU second`,
          ],
        });
      }
      for (const [variant, label, target] of settings) {
        const throughput = { here: [] as number[], plain: [] as number[] };
        const measure = (side: 'here' | 'plain', which: keyof typeof variants) => async () => {
          const round = await createRound(apis[which], pids[which], key, pdf, sql);
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
          target,
          notes: [
            `${CREATES} one-page multipart creates, ${CREATES_AT_ONCE} at a time; ` +
              "the API process's CPU until their runs started",
            `creates/s: ${median(throughput.here).toFixed(0)} (${spread(throughput.here)}) against ` +
              `${median(throughput.plain).toFixed(0)} ` +
              `(${spread(throughput.plain)})`,
          ],
        });
      }
      await sql.end();
      if (otlp.batches() === 0) throw new Error('no trace batch reached the collector');
      console.error(`# ${otlp.batches()} trace batches exported`);
    });
  } finally {
    otlp.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
