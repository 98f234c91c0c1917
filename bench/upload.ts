// `npm run bench:upload [MiB]`: a 200 MiB single-file create (multipart, to 201) against the plain
// alternative, a raw HTTP PUT of the same bytes to a presigned URL of the same MinIO (nothing hashed: the
// wire and the store, nothing else), alternating on one stack. Both are sent by curl, whose CPU is next to
// nothing either way (Node's fetch spends some 0.4 CPU-seconds building a 200 MiB multipart body, its http
// some 0.2 streaming a PUT: on two cores, a client's CPU would be measured against the server's). Also the
// API's and the worker's resident-memory growth while the create runs (target: the API grows by at most 64
// MiB), from a baseline taken once a warm-up review has settled. The creates use a live key, as a
// lender's are (a sandbox create also renders and releases its canned report before its 201); each review
// is left to settle, untimed, before the next round, so that its analysis of the (random) file does not
// load the machine during it. Also the API's CPU time per create (all its threads), a figure the load of a
// shared machine disturbs less than the times.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'minio';
import { createSql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { cpuSeconds, memoryMiB, withThrowawayStack } from '../scripts/stack/throwaway.js';
import { alternate, report } from './side-by-side.js';

const MiB = 1024 * 1024;
const SIZE_MIB = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function settled(api: string, key: string, id: string): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const res = await fetch(`${api}/reviews/${id}`, { headers: { authorization: `Bearer ${key}` } });
    const { status } = (await res.json()) as { status: string };
    if (status !== 'queued' && status !== 'processing') return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`review ${id} did not settle within 2 minutes`);
}

async function main() {
  await withThrowawayStack(
    {
      durable: true,
      compiled: true,
      serviceEnv: { MAX_FILE_BYTES: String(512 * MiB), MAX_REVIEW_BYTES: String(1024 * MiB) },
      log: () => {},
    },
    async ({ stack, api, dir, pids }) => {
      const sql = createSql(stack.config, { max: 1 });
      const [org] = await sql<{ id: string }[]>`select id from organizations limit 1`;
      const { key } = await createApiKey(sql, { organizationId: org!.id, sandbox: false });
      await sql`update organizations set rate_limit_per_minute = 100000 where id = ${org!.id}`;
      await sql.end();

      const file = join(dir, 'big.pdf');
      const handle = await open(file, 'w');
      await handle.write(Buffer.from('%PDF-1.7\n'));
      const block = randomBytes(MiB);
      for (let i = 0; i < SIZE_MIB; i++) await handle.write(block);
      await handle.close();

      const create = async (name: string): Promise<{ seconds: number; id: string }> => {
        const t0 = performance.now();
        const { stdout } = await curl([
          '-H',
          `authorization: Bearer ${key}`,
          '-F',
          `documents=@${file};type=application/pdf;filename=${name}`,
          '-w',
          '\n%{http_code}',
          `${api}/reviews`,
        ]);
        const seconds = (performance.now() - t0) / 1000;
        // The body, then the status on a line of its own (-w).
        const text = stdout.slice(0, stdout.lastIndexOf('\n'));
        const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
        if (status !== '201') throw new Error(`create failed: ${status} ${text}`);
        const review = JSON.parse(text) as { review_id: string; document_count: number };
        if (review.document_count !== 1) throw new Error(`the create kept ${review.document_count} documents`);
        return { seconds, id: review.review_id };
      };

      // Warm the API's and the worker's code paths with one whole create, settled, before any baseline.
      const warm = await create('warm.pdf');
      await settled(api, key, warm.id);
      const base = { api: await memoryMiB(pids.api), worker: await memoryMiB(pids.worker) };
      const peak = { ...base };
      const sampler = setInterval(() => {
        void memoryMiB(pids.api).then(
          (m) => (peak.api = Math.max(peak.api, m)),
          () => {},
        );
        void memoryMiB(pids.worker).then(
          (m) => (peak.worker = Math.max(peak.worker, m)),
          () => {},
        );
      }, 25);

      const { endpoint, accessKey, secretKey, bucket } = stack.config.minio;
      const url = new URL(endpoint);
      const plain = new Client({
        endPoint: url.hostname,
        port: Number(url.port),
        useSSL: url.protocol === 'https:',
        accessKey,
        secretKey,
      });
      let created: string | undefined;
      const apiCpu: number[] = [];
      try {
        const sides = await alternate(
          ROUNDS,
          {
            label: 'multipart create → 201',
            measure: async (round) => {
              const cpu = await cpuSeconds(pids.api);
              const { seconds, id } = await create(`big-${round}.pdf`);
              apiCpu.push((await cpuSeconds(pids.api)) - cpu);
              created = id;
              // Its analysis, untimed, before the next round.
              await settled(api, key, id);
              return seconds;
            },
          },
          {
            label: 'HTTP PUT to a presigned URL',
            measure: async (round) => {
              const target = await plain.presignedPutObject(bucket, `bench/plain-${round}.pdf`, 3600);
              const t0 = performance.now();
              await rawPut(target, file);
              return (performance.now() - t0) / 1000;
            },
          },
        );
        clearInterval(sampler);
        if (!created) throw new Error('no create was measured');
        const grew = { api: peak.api - base.api, worker: peak.worker - base.worker };
        report({
          what: `${SIZE_MIB} MiB single-file create`,
          unit: 's',
          higherIsBetter: false,
          ...sides,
          target: 0.7,
          notes: [
            `API RSS ${base.api.toFixed(0)} → peak ${peak.api.toFixed(0)} MiB ` +
              `(+${grew.api.toFixed(0)}, target ≤ 64); worker +${grew.worker.toFixed(0)} MiB from a baseline after ` +
              `the warm-up review settled`,
            `API CPU per create: ${apiCpu.map((s) => s.toFixed(2)).join(', ')} s`,
          ],
        });
        if (grew.api > 64) throw new Error(`the API grew by ${grew.api.toFixed(0)} MiB, over 64`);
      } finally {
        clearInterval(sampler);
      }
    },
  );
}

const curl = (args: string[]) =>
  promisify(execFile)('curl', ['-sS', '--fail-with-body', ...args], { maxBuffer: 1 << 20 });

/** PUTs the file's bytes to a presigned URL: one request, streamed, nothing hashed. */
async function rawPut(url: string, file: string): Promise<void> {
  await curl(['-o', '/dev/null', '-T', file, url]);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
