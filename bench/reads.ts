// `npm run bench:reads`: GET /v1/reviews/{id} through the service (authentication, the fleet-wide rate
// limit, the request log) against the plain alternative, bare Express 5 + postgres.js selecting the row by
// key (bench/plain/read-server.ts), on the same durable Postgres, 20 connections for 10 s each round
// (autocannon), alternating. Target: ≥ 0.7 × the plain handler's requests per second.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createSql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { freePort } from '../scripts/stack/ports.js';
import { withThrowawayStack } from '../scripts/stack/throwaway.js';
import { alternate, report } from './side-by-side.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;

async function requestsPerSecond(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(
      `${url}: ${failed} of ${result.requests.total} requests failed (non-2xx ${result.non2xx}, ` +
        `errors ${result.errors}, timeouts ${result.timeouts})`,
    );
  // autocannon stops at its first one-second tick past the duration: its requests are those of all of it.
  return result.requests.total / result.duration;
}

async function main() {
  await withThrowawayStack({ durable: true, compiled: true, log: () => {} }, async ({ stack, api }) => {
    const sql = createSql(stack.config, { max: 1 });
    // A sandbox key: its review is settled at once, so no analysis runs while reads are measured.
    const [org] = await sql<{ id: string }[]>`select id from organizations limit 1`;
    const { key } = await createApiKey(sql, { organizationId: org!.id, sandbox: true });
    // Far above what the benchmark sends, so that every request is counted and none refused.
    await sql`update organizations set rate_limit_per_minute = 100000000 where id = ${org!.id}`;
    const body = new FormData();
    body.append('documents', new Blob([Buffer.from('%PDF-1.7\n%%EOF\n')], { type: 'application/pdf' }), 'cd.pdf');
    const created = await fetch(`${api}/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body,
    });
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${await created.text()}`);
    const { review_id: id } = (await created.json()) as { review_id: string };
    await sql.end();

    const port = await freePort();
    const plain = spawn(process.execPath, ['--import=tsx', 'bench/plain/read-server.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: stack.config.database.url,
        PORT: String(port),
        DATABASE_POOL_MAX: String(stack.config.database.poolMax),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await once(plain.stdout, 'data');
      const plainUrl = `http://127.0.0.1:${port}/v1/reviews/${id}`;
      // Warm both (JIT, pools, the key cache) before the first measured round.
      await autocannon({
        url: `${api}/reviews/${id}`,
        connections: CONNECTIONS,
        duration: 2,
        headers: { authorization: `Bearer ${key}` },
      });
      await autocannon({ url: plainUrl, connections: CONNECTIONS, duration: 2 });
      const sides = await alternate(
        ROUNDS,
        {
          label: 'the service',
          measure: () => requestsPerSecond(`${api}/reviews/${id}`, { authorization: `Bearer ${key}` }),
        },
        { label: 'bare Express + postgres.js', measure: () => requestsPerSecond(plainUrl, {}) },
      );
      report({
        what: 'GET /v1/reviews/{id}',
        unit: 'req/s',
        higherIsBetter: true,
        ...sides,
        target: 0.7,
        notes: [
          `autocannon -c${CONNECTIONS} -d${SECONDS}, durable Postgres (fsync on); the service ` +
            `authenticates, counts the request fleet-wide and logs it`,
        ],
      });
    } finally {
      plain.kill();
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
