// `npm run bench:review-list`: GET /v1/reviews with each of its filters over an organization of a million
// reviews (seeded straight into PostgreSQL, spread over a year, with another organization's 200,000
// beside them), against the same API's unfiltered first page over the same table: the floor a list
// request sets, the head of the listing index. Each round sends each request 100 times, one after another.
// Figure: the slowest filter's p95 (here) and the unfiltered page's p95 (plain). Target: a ratio of at
// least 0.5: no filter reads the table past its page, as a scan of a million rows would (hundreds of ms).
import { createSql } from '../src/db/client.js';
import { createOrganization } from '../src/db/organizations.js';
import { withThrowawayStack } from '../scripts/stack/throwaway.js';
import { alternate, MIN_ROUNDS, report } from './side-by-side.js';

const ROUNDS = Math.max(MIN_ROUNDS, Number(process.env.BENCH_ROUNDS ?? MIN_ROUNDS));
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 1_000_000);
const REQUESTS = 100;
const TARGET = 0.5;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main(): Promise<void> {
  await withThrowawayStack({ durable: true, compiled: true, log: () => {} }, async ({ stack, api, key }) => {
    const sql = createSql(stack.config, { max: 1 });
    const [org] = await sql<{ id: string }[]>`select organization_id as id from api_keys limit 1`;
    await sql`update organizations set rate_limit_per_minute = 100000000 where id = ${org!.id}`;
    const other = await createOrganization(sql, 'neighbour');
    const t0 = new Date('2026-11-01T00:00:00Z');
    const started = performance.now();
    // One review in 100 failed, one queued, one awaiting documents, three processing, the rest completed;
    // one every 30 s back from t0, so a million span about a year.
    const seed = (organizationId: string, count: number, prefix: string) => sql`
      insert into reviews (id, organization_id, sandbox, status, internal_state, review_type, reference_id,
                           document_count, report_available, created_at, updated_at)
      select gen_random_uuid(), ${organizationId}, false,
             case when i % 100 = 0 then 'failed' when i % 100 = 1 then 'queued'
                  when i % 100 = 2 then 'awaiting_documents' when i % 100 < 6 then 'processing'
                  else 'completed' end,
             'released', 'mortgage_v1', ${prefix} || i, 1, true,
             ${t0}::timestamptz - i * interval '30 seconds', ${t0}::timestamptz - i * interval '30 seconds'
        from generate_series(1, ${count}::int) i`;
    await seed(org!.id, REVIEWS, 'LN-');
    await seed(other.id, REVIEWS / 5, 'OT-');
    await sql`analyze reviews`;
    console.error(`seeded ${REVIEWS + REVIEWS / 5} reviews in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await sql.end();

    const get = async (
      query: string,
    ): Promise<{ ms: number; body: { data: unknown[]; next_cursor: string | null } }> => {
      const at = performance.now();
      const res = await fetch(`${api}/reviews?${query}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { data: unknown[]; next_cursor: string | null };
      if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - at, body };
    };
    const day = (offset: number) => new Date(t0.getTime() - offset * 86_400_000).toISOString();
    const firstFailed = await get('status=failed&limit=20');
    const filters: Record<string, string> = {
      'status=failed': 'status=failed',
      'status=queued, its second page': `status=queued&cursor=${encodeURIComponent(
        (await get('status=queued&limit=20')).body.next_cursor ?? '',
      )}`,
      reference_id: `reference_id=LN-${Math.floor(REVIEWS / 2)}`,
      'one day (created_after, created_before)': `created_after=${day(181)}&created_before=${day(180)}`,
      'created_before, half a year back': `created_before=${day(182)}`,
      'status=failed in one week': `status=failed&created_after=${day(100)}&created_before=${day(93)}`,
    };
    if (firstFailed.body.data.length !== 20) throw new Error('the seeded failed reviews are missing');
    const p95s: Record<string, number[]> = Object.fromEntries(Object.keys(filters).map((k) => [k, []]));
    const measure = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) times.push((await get(query)).ms);
      return percentile(times, 95);
    };
    // Warm the API and PostgreSQL's cache for each request first.
    for (const q of ['limit=20', ...Object.values(filters)]) await measure(q);
    const sides = await alternate(
      ROUNDS,
      {
        label: 'the slowest filter, p95',
        measure: async () => {
          let slowest = 0;
          for (const [name, q] of Object.entries(filters)) {
            const p95 = await measure(q);
            p95s[name]!.push(p95);
            slowest = Math.max(slowest, p95);
          }
          return slowest;
        },
      },
      { label: 'the unfiltered first page, p95', measure: () => measure('limit=20') },
    );
    report({
      what: `GET /v1/reviews with a filter, ${REVIEWS.toLocaleString('en-US')} reviews`,
      unit: 'ms',
      higherIsBetter: false,
      here: sides.here,
      plain: sides.plain,
      target: TARGET,
      notes: [
        `${REQUESTS} requests a filter a round, one at a time; the table seeded with ${REVIEWS.toLocaleString('en-US')} ` +
          `reviews of the organization and ${(REVIEWS / 5).toLocaleString('en-US')} of another`,
        ...Object.entries(p95s).map(([name, xs]) => `${name}: p95 ${xs.map((x) => x.toFixed(1)).join(', ')} ms`),
      ],
    });
  });
}

await main();
