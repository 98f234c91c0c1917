// `npm run bench:hostile-uploads`: the API's event loop while crafted uploads (test/support/crafted-uploads.ts:
// an 8 MiB PDF of empty deflate blocks, a padded zip of three 25 MiB such PDFs, a 1 MiB PDF whose XRef
// stream inflates to 1 GiB) are created at once and another organization reads every 100 ms, against the
// same uploads' same-size twins of random bytes: the floor the API's streaming itself sets, in the same run.
// Figure: the API's event-loop delay p99 (prom-client's monitorEventLoopDelay, in the API process) beyond
// an idle process's over the same interval. Targets: at most 50 ms, with RSS growth at most
// 64 MiB and every read answered 200. Each round's reviews settle before the next round starts.
import { cpus } from 'node:os';
import { createSql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { createOrganization, updateOrganizationPolicy } from '../src/db/organizations.js';
import { withThrowawayStack } from '../scripts/stack/throwaway.js';
import { pdf } from '../test/support/fixtures.js';
import { craftedUploads, sameSizeTwins, uploadRound, type Upload } from '../test/support/crafted-uploads.js';
import { alternate, MIN_ROUNDS, report } from './side-by-side.js';

const ROUNDS = Math.max(MIN_ROUNDS, Number(process.env.BENCH_ROUNDS ?? MIN_ROUNDS));
const TARGET_MS = 50;
const RSS_TARGET_MIB = 64;
const SETTLED = new Set(['failed', 'awaiting_documents', 'completed']);

interface Round {
  p99: number;
  idle: number;
  rssGrowth: number;
  reads: number;
  refused: number;
  slowestRead: number;
}

async function main(): Promise<void> {
  const crafted = await craftedUploads();
  const twins = await sameSizeTwins(crafted);
  await withThrowawayStack({ compiled: true, log: () => {} }, async ({ stack, api, key, ports, pids }) => {
    const sql = createSql(stack.config, { max: 1 });
    const bystanderOrg = await createOrganization(sql, 'bystander');
    // Its reads every 100 ms for as long as the uploads take: more than the default 60 a minute.
    await updateOrganizationPolicy(sql, bystanderOrg.id, { rateLimitPerMinute: 100_000 });
    const bystander = (await createApiKey(sql, { organizationId: bystanderOrg.id, sandbox: false })).key;
    await sql.end();
    const metrics = `http://127.0.0.1:${ports.apiOps}/metrics`;
    const send = (k: string, init: RequestInit & { path: string }) =>
      fetch(`${api}${init.path}`, { ...init, headers: { authorization: `Bearer ${k}`, ...init.headers } });
    const mineForm = new FormData();
    mineForm.append('documents', new Blob([await pdf('Closing Disclosure')]), 'cd.pdf');
    const mine = (await (await send(bystander, { path: '/reviews', method: 'POST', body: mineForm })).json()) as {
      review_id?: string;
    };
    if (!mine.review_id) throw new Error(`the bystander's create gave no review: ${JSON.stringify(mine)}`);

    const rounds: Record<'here' | 'plain', Round[]> = { here: [], plain: [] };
    const measure = async (which: 'here' | 'plain', uploads: Upload[]): Promise<number> => {
      const done = await uploadRound({
        pid: pids.api,
        metricsUrl: metrics,
        uploads,
        create: async (u) => {
          const body = new FormData();
          body.append('documents', new Blob([u.data]), u.name);
          const res = await send(key, { path: '/reviews', method: 'POST', body });
          const text = await res.text();
          if (res.status !== 201) throw new Error(`${u.name}: ${res.status} ${text}`);
          return { status: res.status, text };
        },
        read: async () => {
          const res = await send(bystander, { path: `/reviews/${mine.review_id}` });
          await res.arrayBuffer();
          return res.status;
        },
      });
      const created = done.answers.map((a) => (JSON.parse(a.text) as { review_id: string }).review_id);
      // The next round starts on a quiet worker.
      for (const id of created) {
        for (;;) {
          const review = (await (await send(key, { path: `/reviews/${id}` })).json()) as { status?: string };
          if (review.status && SETTLED.has(review.status)) break;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      const { loop, idle, rss, reads } = done;
      const round = {
        p99: loop.p99,
        idle,
        rssGrowth: rss.peak - rss.before,
        reads: reads.length,
        refused: reads.filter((r) => r.status !== 200).length,
        slowestRead: Math.max(...reads.map((r) => r.ms)),
      };
      rounds[which].push(round);
      return Math.max(0, round.p99 - Math.max(0, round.idle));
    };

    const sides = await alternate(
      ROUNDS,
      { label: 'crafted uploads', measure: () => measure('here', crafted) },
      { label: 'same-size uploads of random bytes', measure: () => measure('plain', twins) },
    );
    const worst = (which: 'here' | 'plain', f: (r: Round) => number) => Math.max(...rounds[which].map(f));
    const p99s = sides.here.samples.map((s) => s.value);
    const problems: string[] = [];
    const met = (ok: boolean, problem: string) => {
      if (!ok) problems.push(problem);
      return ok ? '✓' : '✗';
    };
    report({
      what: 'API event-loop p99 under hostile uploads',
      unit: 'ms',
      higherIsBetter: false,
      here: sides.here,
      plain: sides.plain,
      notes: [
        `the three at once; figure: the API's loop delay p99 beyond an idle process's over the same interval ` +
          `(idle: ${rounds.here.map((r) => r.idle.toFixed(1)).join(', ')} ms); ${cpus().length} cores`,
        `p99: ${p99s.map((x) => x.toFixed(1)).join(', ')} ms (target: each ≤ ${TARGET_MS} ms) ` +
          met(
            p99s.every((x) => x <= TARGET_MS),
            `an event-loop p99 over ${TARGET_MS} ms`,
          ),
        `API RSS growth: up to ${worst('here', (r) => r.rssGrowth).toFixed(0)} MiB (target ≤ ${RSS_TARGET_MIB}) ` +
          met(worst('here', (r) => r.rssGrowth) <= RSS_TARGET_MIB, 'RSS grew too much'),
        `the bystander's reads: ${rounds.here.map((r) => r.reads).join(', ')}, slowest ` +
          `${worst('here', (r) => r.slowestRead).toFixed(0)} ms, refused ${worst('here', (r) => r.refused)} ` +
          `(target: none) ${met(worst('here', (r) => r.refused) === 0, 'a read was refused')}`,
      ],
    });
    if (problems.length > 0) throw new Error(problems.join('; '));
  });
}

await main();
