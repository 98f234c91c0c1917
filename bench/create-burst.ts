// `npm run bench:create-burst [N]`: a lender's month-end batch against the floor the orchestrator itself
// sets, in the same run on the same Temporal server and machine. Each round sends three bursts of N
// (default 200) simultaneous calls, the order rotating round by round:
// - the floor: update-with-start of a minimal workflow whose update runs one local activity and answers
//   (bench/floor/), polled by a worker of this process with the service worker's workflow-task slots,
//   threads and pollers;
// - N multipart creates of a 1–3 document package (CFPB Loan Estimates and Closing Disclosures) over 8
//   organizations of their own;
// - N creates by signed URL of the same packages, served by an HTTPS server of this process, over 8 more.
// Figures: each burst's p95 answer time. Targets: every create answered 201 (no 503), p95 ≤ 2 × the
// floor's p95 of the same round set, and then every review a create was answered with completed with its
// report, none failed and none that no create was answered with. A create answered 503 is retried with its
// Idempotency-Key, as the 503 asks, so that what became of it is counted. Each service burst's reviews
// finish before the next burst starts.
import { randomUUID } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createSql, type Sql } from '../src/db/client.js';
import { createApiKey } from '../src/db/keys.js';
import { createOrganization } from '../src/db/organizations.js';
import { createTemporalClient, temporalConnectionOptions, temporalDataConverter } from '../src/temporal/connection.js';
import { createTestCertificates } from '../scripts/stack/test-certificates.js';
import { withThrowawayStack } from '../scripts/stack/throwaway.js';
import * as floorActivities from './floor/activities.js';
import { floorWorkflow, takeUpdate } from './floor/workflow.js';
import { allCompleted } from './reviews-completed.js';
import { MIN_ROUNDS, report, type Side } from './side-by-side.js';

const BURST = Number(process.argv[2] ?? 200);
const ORGANIZATIONS = 8;
const ROUNDS = Math.max(MIN_ROUNDS, Number(process.env.BENCH_ROUNDS ?? MIN_ROUNDS));
/** A review not completed within this after its burst is counted lost. */
const COMPLETION_TIMEOUT_MS = 30 * 60_000;
const CORPUS = fileURLToPath(new URL('../test/corpus/cfpb/', import.meta.url));
/** The target: a burst's p95 at most this many times the floor's. */
const FLOOR_FACTOR = 2;

Runtime.install({ logger: new DefaultLogger('WARN') });

interface Answer {
  status: number;
  seconds: number;
  reviewId?: string;
  body: string;
  /** For a create first answered 503: the status its retries with the same Idempotency-Key ended on. */
  retried?: number;
}

interface Burst {
  p50: number;
  p95: number;
  answers: Answer[];
}

type Kind = 'floor' | 'multipart' | 'source URL';

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A call's answer, and when its first answer came (performance.now()). */
type Call = () => Promise<Omit<Answer, 'seconds'> & { answeredAt: number }>;

/** Runs every call at once and times each first answer from the burst's start. */
async function burst(calls: Call[]): Promise<Burst> {
  const t0 = performance.now();
  const answers = await Promise.all(
    calls.map(async (call): Promise<Answer> => {
      try {
        const { answeredAt, ...answer } = await call();
        return { ...answer, seconds: (answeredAt - t0) / 1000 };
      } catch (err) {
        return { status: 0, seconds: (performance.now() - t0) / 1000, body: String(err) };
      }
    }),
  );
  const times = answers.map((a) => a.seconds);
  return { p50: percentile(times, 50), p95: percentile(times, 95), answers };
}

/**
 * A create as an integrator sends it: answered at once is what is timed; a 503 is then retried with the
 * same Idempotency-Key after its Retry-After (untimed), so that the review it may have made is counted.
 */
function createCall(url: string, key: string, body: () => FormData | string): Call {
  return async () => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() };
    const send = () => {
      const b = body();
      return fetch(url, {
        method: 'POST',
        headers: typeof b === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
        body: b,
      });
    };
    const res = await send();
    const text = await res.text();
    const answer: Omit<Answer, 'seconds'> & { answeredAt: number } = {
      status: res.status,
      body: text,
      answeredAt: performance.now(),
      ...reviewOf(res.status, text),
    };
    if (res.status !== 503) return answer;
    // The time is the first answer's; the retries only tell what became of the create.
    for (let attempt = 0; attempt < 20 && (answer.retried ?? 503) === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
      const again = await send();
      const t = await again.text();
      answer.retried = again.status;
      Object.assign(answer, reviewOf(again.status, t));
    }
    return answer;
  };
}

async function main() {
  const corpus = await Promise.all(
    ['cd_sample_fixed_rate_h25b.pdf', 'le_sample_fixed_rate_h24b.pdf', 'cd_sample_refi_excess_cost_h25f1.pdf'].map(
      async (name) => ({ name, data: await readFile(CORPUS + name) }),
    ),
  );
  // 1, 2 or 3 documents, always with a Closing Disclosure so that every review is analysed and released.
  const packageOf = (i: number) => corpus.slice(0, 1 + (i % 3));

  const tlsDir = await mkdtemp(join(tmpdir(), 'loan-review-burst-tls-'));
  const tls = await createTestCertificates(tlsDir);
  // The integrators' file host: every source URL of the burst points here.
  const files = createServer({ cert: await readFile(tls.certFile), key: await readFile(tls.keyFile) }, (req, res) => {
    const file = corpus.find((f) => req.url?.startsWith(`/${f.name}?`));
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.data.length }).end(file.data);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const fileUrl = (name: string) =>
    `https://127.0.0.1:${(files.address() as AddressInfo).port}/${name}?X-Signature=bench&X-Expires=3600`;

  try {
    await withThrowawayStack(
      {
        durable: true,
        compiled: true,
        log: () => {},
        // The file host is on this machine, behind the suite's test CA.
        serviceEnv: { TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'true', NODE_EXTRA_CA_CERTS: tls.caFile },
      },
      async ({ stack, api }) => {
        const { config } = stack;
        const sql = createSql(config, { max: 2 });
        const client = createTemporalClient(config);
        const connection = await NativeConnection.connect(temporalConnectionOptions(config));
        const floorQueue = `floor-${randomUUID()}`;
        // The service's worker has these slots for workflow tasks; so has the floor's.
        const floorWorker = await Worker.create({
          connection,
          namespace: config.temporal.namespace,
          taskQueue: floorQueue,
          workflowsPath: fileURLToPath(new URL('./floor/workflow.ts', import.meta.url)),
          activities: floorActivities,
          dataConverter: temporalDataConverter(config),
          maxConcurrentWorkflowTaskExecutions: config.worker.workflowTasks,
          maxCachedWorkflows: Math.max(config.worker.workflowTasks, 1_000),
          workflowThreadPoolSize: config.worker.workflowThreads,
          // Polled as the service's worker polls (worker/review-workers.ts).
          workflowTaskPollerBehavior: { type: 'autoscaling' },
          activityTaskPollerBehavior: { type: 'autoscaling' },
        });
        const polling = floorWorker.run();
        try {
          /** Keys of 8 fresh organizations: each burst's creates are within every organization's rate limit. */
          const freshKeys = async () =>
            Promise.all(
              Array.from({ length: ORGANIZATIONS }, async (_, o) => {
                const org = await createOrganization(sql, `burst-${o}-${randomUUID()}`);
                return (await createApiKey(sql, { organizationId: org.id, sandbox: false })).key;
              }),
            );
          const calls: Record<Kind, () => Promise<{ calls: Call[]; keys: string[] }>> = {
            floor: async () => ({
              keys: [],
              calls: Array.from({ length: BURST }, () => async () => {
                const id = randomUUID();
                const answered = await client.workflow.executeUpdateWithStart(takeUpdate, {
                  args: [id],
                  startWorkflowOperation: new WithStartWorkflowOperation(floorWorkflow, {
                    workflowId: id,
                    taskQueue: floorQueue,
                    workflowIdConflictPolicy: 'FAIL',
                  }),
                });
                return { status: answered === id ? 201 : 500, body: answered, answeredAt: performance.now() };
              }),
            }),
            multipart: async () => {
              const keys = await freshKeys();
              return {
                keys,
                calls: Array.from({ length: BURST }, (_, i) => {
                  const referenceId = `burst-${randomUUID()}`;
                  return createCall(`${api}/reviews`, keys[i % ORGANIZATIONS]!, () => {
                    const body = new FormData();
                    for (const f of packageOf(i))
                      body.append('documents', new Blob([f.data], { type: 'application/pdf' }), f.name);
                    body.append('reference_id', referenceId);
                    return body;
                  });
                }),
              };
            },
            'source URL': async () => {
              const keys = await freshKeys();
              return {
                keys,
                calls: Array.from({ length: BURST }, (_, i) => {
                  const body = JSON.stringify({
                    reference_id: `burst-${randomUUID()}`,
                    documents: packageOf(i).map((f) => ({
                      filename: f.name,
                      content_type: 'application/pdf',
                      url: fileUrl(f.name),
                    })),
                  });
                  return createCall(`${api}/reviews`, keys[i % ORGANIZATIONS]!, () => body);
                }),
              };
            },
          };

          const kinds: Kind[] = ['floor', 'multipart', 'source URL'];
          const bursts: Record<Kind, Burst[]> = { floor: [], multipart: [], 'source URL': [] };
          const sides: Record<Kind, Side> = {
            floor: {
              label: `update-with-start of a minimal workflow, one local activity: ${BURST} at once, p95`,
              samples: [],
            },
            multipart: { label: `the service: ${BURST} multipart creates at once, p95`, samples: [] },
            'source URL': { label: `the service: ${BURST} creates by signed URL at once, p95`, samples: [] },
          };
          const completion: Record<Kind, number[]> = { floor: [], multipart: [], 'source URL': [] };
          /** Every review a create was answered with, over all rounds. */
          const announced = new Set<string>();
          /** What must fail the benchmark once its figures are printed. */
          const problems: string[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            // Each kind goes first once every three rounds.
            const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]!);
            for (const kind of order) {
              const { calls: sent, keys } = await calls[kind]();
              const b = await burst(sent);
              bursts[kind].push(b);
              sides[kind].samples.push({ value: b.p95, load: loadavg()[0]! });
              console.error(
                `  round ${round + 1} ${kind}: ${statusCounts(b.answers)}; p50 ${b.p50.toFixed(2)} s, ` +
                  `p95 ${b.p95.toFixed(2)} s (load ${loadavg()[0]!.toFixed(2)})`,
              );
              for (const a of b.answers.filter((x) => x.status !== 201).slice(0, 5))
                console.error(`    ${a.status} after ${a.seconds.toFixed(1)} s: ${a.body.slice(0, 200)}`);
              if (kind === 'floor') {
                if (b.answers.some((a) => a.status !== 201)) throw new Error(`the floor: ${statusCounts(b.answers)}`);
                continue;
              }
              const t0 = performance.now();
              await everyReviewCompleted(sql, api, keys, b, announced, problems);
              completion[kind].push((performance.now() - t0) / 1000);
            }
          }
          const floorP95s = bursts.floor.map((b) => b.p95);
          for (const kind of ['multipart', 'source URL'] as const) {
            const all201 = bursts[kind].every((b) => b.answers.every((a) => a.status === 201));
            const p95s = bursts[kind].map((b) => b.p95);
            const bound = FLOOR_FACTOR * median(floorP95s);
            report({
              what: `${BURST} simultaneous ${kind === 'multipart' ? 'multipart creates' : 'creates by signed URL'}`,
              unit: 's',
              higherIsBetter: false,
              here: sides[kind],
              plain: sides.floor,
              // p95 ≤ 2 × the floor's: a ratio (floor ÷ here) of at least 0.5.
              target: 1 / FLOOR_FACTOR,
              notes: [
                `statuses each round: ${bursts[kind].map((b) => statusCounts(b.answers)).join('; ')} (target: ` +
                  `all 201) ${all201 ? '✓' : '✗'}`,
                `p95: here ${p95s.map((x) => x.toFixed(2)).join(', ')} s, the floor ` +
                  `${floorP95s.map((x) => x.toFixed(2)).join(', ')} s (target: here ≤ ${FLOOR_FACTOR} × the ` +
                  `floor's median, ${bound.toFixed(2)} s) ${median(p95s) <= bound ? '✓' : '✗'}`,
                `p50: here ${bursts[kind].map((b) => b.p50.toFixed(2)).join(', ')} s, the floor ` +
                  `${bursts.floor.map((b) => b.p50.toFixed(2)).join(', ')} s`,
                `none lost: every review a create was answered with completed with its report, in ` +
                  `${completion[kind].map((x) => x.toFixed(0)).join(', ')} s after the burst's last answer`,
              ],
            });
            if (!all201) problems.push(`a ${kind} create was not answered 201`);
          }
          if (problems.length > 0) throw new Error(problems.join('; '));
        } finally {
          floorWorker.shutdown();
          await polling;
          await connection.close();
          await client.connection.close();
          await sql.end();
        }
      },
    );
  } finally {
    files.close();
    await rm(tlsDir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function reviewOf(status: number, body: string): { reviewId?: string } {
  return status === 200 || status === 201 ? { reviewId: (JSON.parse(body) as { review_id: string }).review_id } : {};
}

function statusCounts(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  const retried = answers.filter((a) => a.retried !== undefined);
  const after = retried.length
    ? ` (the 503s retried with their keys: ` +
      `${retried.filter((a) => a.retried === 200 || a.retried === 201).length} answered with a review)`
    : '';
  return (
    [...counts]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ') + after
  );
}

/**
 * Waits until every review the burst was answered with is completed with its report, and checks that no
 * other review appeared: one failed, lost, late or unannounced fails the benchmark.
 */
async function everyReviewCompleted(
  sql: Sql,
  api: string,
  keys: string[],
  b: Burst,
  announced: Set<string>,
  problems: string[],
): Promise<void> {
  const ids = b.answers.flatMap((a) => (a.reviewId ? [a.reviewId] : []));
  for (const id of ids) announced.add(id);
  await allCompleted(sql, ids, { timeoutMs: COMPLETION_TIMEOUT_MS, pollMs: 500 });
  const [unannounced] = await sql<{ n: number }[]>`
    select count(*)::int as n from reviews where reference_id like 'burst-%' and not (id =
    any(${[...announced]}::uuid[]))`;
  if (unannounced!.n > 0) problems.push(`${unannounced!.n} reviews exist that no create was answered with`);
  const [unreleased] = await sql<{ n: number }[]>`
    select count(*)::int as n from reviews r where r.id = any(${ids}::uuid[]) and not exists (select 1
    from releases where review_id = r.id)`;
  if (unreleased!.n > 0) throw new Error(`${unreleased!.n} completed reviews have no release`);
  // The report of one review per organization through the API, by that organization's key (answer i came
  // from organization i mod 8).
  await Promise.all(
    keys.map(async (key, o) => {
      const answered = b.answers.find((a, i) => i % keys.length === o && a.reviewId);
      if (!answered) return;
      const res = await fetch(`${api}/reviews/${answered.reviewId}/report`, {
        headers: { authorization: `Bearer ${key}` },
      });
      if (res.status !== 200) throw new Error(`review ${answered.reviewId}: report ${res.status} ${await res.text()}`);
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
