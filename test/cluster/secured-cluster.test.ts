// The service on a secured self-hosted Temporal cluster (npm run test:cluster): the server built from its
// official module, persistence in PostgreSQL set up by its own SQL tool, TLS with client certificates
// required at the frontend. The API and the worker reach it through TEMPORAL_TLS_*; a review goes end to
// end through it; a process without the client certificate is refused, and says so at its start.
import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ReviewSchema } from '../../src/reviews/review.js';
import { ReportSchema } from '../../src/reviews/report.js';
import { REPO_ROOT } from '../../scripts/stack/stack.js';
import { freePort } from '../../scripts/stack/ports.js';
import { pdf } from '../support/fixtures.js';
import { call, form } from '../support/http.js';
import { waitForReview } from '../support/reviews.js';
import { closeShared, newOrganization, stack, temporalClient } from '../support/stack.js';

test.after.always(closeShared);

test.before((t) => {
  if (!stack.temporalCluster) throw new Error('these tests run against the secured cluster: npm run test:cluster');
  t.pass();
});

/** Runs a service of this checkout with `env` until it exits or `ms` pass; its output and exit code. */
async function runService(
  role: 'worker' | 'api',
  env: Record<string, string>,
  ms: number,
  until?: (output: string) => boolean,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, role === 'api' ? 'api/server.ts' : 'worker/main.ts')],
    { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const watch = until
    ? setInterval(() => {
        if (until(output)) child.kill('SIGTERM');
      }, 100)
    : undefined;
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (watch) clearInterval(watch);
  return { code, output };
}

/** The service's environment without its client certificate: TLS still, to the same CA and name. */
function withoutClientCertificate(env: Record<string, string>): Record<string, string> {
  const { TEMPORAL_TLS_CERT: _cert, TEMPORAL_TLS_KEY: _key, ...rest } = env;
  return { ...rest, TEMPORAL_TASK_QUEUE: `no-certificate-${randomUUID()}` };
}

test('the stack runs on the cluster: Temporal 1.29.1 persisting in PostgreSQL, reached over mutual TLS', async (t) => {
  const client = await temporalClient();
  const info = await client.workflowService.getClusterInfo({});
  t.is(info.serverVersion, '1.29.1');
  t.regex(info.persistenceStore ?? '', /postgres/i);
  t.regex(info.visibilityStore ?? '', /postgres/i);
  t.truthy(stack.serviceEnv.TEMPORAL_TLS_CERT);
  t.truthy(stack.serviceEnv.TEMPORAL_TLS_CA);
});

test('a live review goes end to end through the cluster: created, analysed, released with its report', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    form: form([
      { name: 'cd.pdf', data: await pdf('Closing Disclosure') },
      { name: 'note.pdf', data: await pdf('NOTE') },
    ]),
  });
  t.is(res.status, 201, res.text);
  const { review_id } = ReviewSchema.parse(res.body);
  const done = await waitForReview(
    org.liveKey,
    review_id,
    (r) => r.status === 'completed' || r.status === 'failed',
    120_000,
  );
  t.like(done, { status: 'completed', report_available: true });
  const report = await call(stack.apiUrl, 'GET', `/reviews/${review_id}/report`, { key: org.liveKey });
  t.is(report.status, 200, report.text);
  ReportSchema.parse(report.body);
  // The run is the cluster's: its history is there, read over mTLS.
  const history = await (await temporalClient()).workflow.getHandle(review_id).fetchHistory();
  t.true((history.events ?? []).length > 10);
});

test(
  'a worker without the client certificate does not start: it says which Temporal refused it and ' + 'how it connected',
  async (t) => {
    const { code, output } = await runService('worker', withoutClientCertificate(stack.serviceEnv), 90_000);
    t.is(code, 1, output);
    t.regex(
      output,
      new RegExp(
        `cannot connect to Temporal at ${stack.serviceEnv.TEMPORAL_ADDRESS!.replace(/\./g, '\\.')} ` +
          `\\(namespace default, TLS\\)`,
      ),
    );
    t.notRegex(output, /polling task queue/);
  },
);

test('an API without the client certificate says at once that Temporal refused it, and is not ready', async (t) => {
  const port = await freePort();
  let ready = -1;
  const { output } = await runService(
    'api',
    { ...withoutClientCertificate(stack.apiServiceEnv), PORT: String(port) },
    60_000,
    (out) => {
      if (!/refused the connection/.test(out)) return false;
      void fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => (ready = r.status),
        () => undefined,
      );
      return ready !== -1;
    },
  );
  t.regex(
    output,
    /Temporal at 127\.0\.0\.1:\d+ \(namespace default, TLS\) is not reachable yet or refused the connection/,
  );
  t.is(ready, 503);
});
