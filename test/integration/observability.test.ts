// What an operator runs the service on: Prometheus metrics on each process's operations port (needing no
// key, never on the public API's port), the workers' liveness and readiness, a dashboard and alert rules
// naming only metrics the processes export, and JSON logs that hold no borrower data.
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { call, form } from '../support/http.js';
import { logRecords, recordOnceItHolds } from '../support/logs.js';
import { scrape, total, type Scrape } from '../support/prometheus.js';
import { waitForReview } from '../support/reviews.js';
import { apiRoot, closeShared, newOrganization, stack } from '../support/stack.js';

test.after.always(closeShared);

const corpus = new URL('../corpus/cfpb/', import.meta.url);
const repo = new URL('../../', import.meta.url);

test('the API serves its metrics on the operations port, without a key, and not on the public port', async (t) => {
  const res = await fetch(`${stack.opsUrls.api}/metrics`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  t.regex(text, /^# TYPE loan_review_http_request_duration_seconds histogram$/m);
  t.regex(text, /^# TYPE process_cpu_user_seconds_total counter$/m);

  const publicPort = await fetch(`${apiRoot}/metrics`);
  t.is(publicPort.status, 404);
  t.like(await publicPort.json(), { error: { code: 'not_found' } });
  t.is((await fetch(`${stack.opsUrls.api}/v1/reviews`)).status, 404);
});

test('requests are measured by route template and outcome: a create, a refused key, an upload', async (t) => {
  const org = await newOrganization();
  const before = await scrape(`${stack.opsUrls.api}/metrics`);
  const data = await readFile(new URL('cd_sample_fixed_rate_h25b.pdf', corpus));
  const created = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    form: form([{ name: 'cd.pdf', data }]),
  });
  t.is(created.status, 201, created.text);
  const id = (created.body as { review_id: string }).review_id;
  t.is((await call(stack.apiUrl, 'GET', `/reviews/${id}`, { key: org.sandboxKey })).status, 200);
  // The request's record in the API's log names the review it made, by id.
  const record = await recordOnceItHolds(
    join(stack.logDir, 'api.log'),
    (r) => r.request_id === created.headers.get('x-request-id') && r.status === 201,
  );
  t.like(record, { review_id: id, method: 'POST', path: '/v1/reviews', level: 'info', service: 'api' });
  t.is((await call(stack.apiUrl, 'GET', '/reviews', { key: 'lr_live_not-a-key' })).status, 401);
  const after = await scrape(`${stack.opsUrls.api}/metrics`);
  const grew = (s: Scrape, name: string, labels: Record<string, string>) => total(s, name, labels);
  const delta = (name: string, labels: Record<string, string> = {}) =>
    grew(after, name, labels) - grew(before, name, labels);

  t.true(delta('loan_review_creates_total', { outcome: 'accepted' }) >= 1);
  t.true(
    delta('loan_review_http_request_duration_seconds_count', {
      method: 'POST',
      route: '/v1/reviews',
      status_class: '2xx',
    }) >= 1,
  );
  // The route's template, never the review's id.
  t.true(
    delta('loan_review_http_request_duration_seconds_count', { method: 'GET', route: '/v1/reviews/:review_id' }) >= 1,
  );
  t.false(after.samples.some((s) => Object.values(s.labels).some((v) => v.includes(id))));
  t.true(delta('loan_review_auth_failures_total', { code: 'invalid_api_key' }) >= 1);
  t.true(delta('loan_review_upload_bytes_total') >= data.length);
  t.true(delta('loan_review_postgres_query_duration_seconds_count', { kind: 'query', outcome: 'ok' }) >= 1);
  t.true(delta('loan_review_temporal_call_duration_seconds_count', { outcome: 'ok' }) >= 1);
});

test('workers answer liveness and readiness on their operations ports, each for what it does', async (t) => {
  for (const url of [stack.opsUrls.worker, stack.opsUrls.analysis]) {
    const live = await fetch(`${url}/healthz`);
    t.is(live.status, 200);
    t.deepEqual(await live.json(), { status: 'ok' });
  }
  const reviews = await fetch(`${stack.opsUrls.worker}/readyz`);
  t.is(reviews.status, 200);
  t.deepEqual(await reviews.json(), { status: 'ready', checks: { polling: 'ok', readers: 'not_needed' } });
  // Readers warm a moment after polling begins.
  let analysis: Response | undefined;
  for (let i = 0; i < 100 && analysis?.status !== 200; i++) {
    analysis = await fetch(`${stack.opsUrls.analysis}/readyz`);
    if (analysis.status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  t.is(analysis?.status, 200);
  t.deepEqual(await analysis?.json(), { status: 'ready', checks: { polling: 'ok', readers: 'ok' } });
});

/** A live package named and filled with a borrower's particulars, analysed to its report. */
async function analysedPackage(): Promise<void> {
  const org = await newOrganization();
  const files = await Promise.all(
    [
      ['Michael Jones and Mary Stone - 123 Anywhere Street - closing disclosure.pdf', 'cd_sample_fixed_rate_h25b.pdf'],
      ['Michael Jones loan estimate $162,000.pdf', 'le_sample_fixed_rate_h24b.pdf'],
    ].map(async ([name, file]) => ({ name: name!, data: await readFile(new URL(file!, corpus)) })),
  );
  const res = await call(stack.apiUrl, 'POST', '/reviews', { key: org.liveKey, form: form(files) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  const id = (res.body as { review_id: string }).review_id;
  await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 120_000);
}

let analysed: Promise<void> | undefined;
const packageAnalysed = () => {
  analysed ??= analysedPackage();
  return analysed;
};

test("after a review, each worker's metrics hold the Temporal SDK's and its own", async (t) => {
  await packageAnalysed();
  const reviews = await scrape(`${stack.opsUrls.worker}/metrics`);
  const analysis = await scrape(`${stack.opsUrls.analysis}/metrics`);
  for (const s of [reviews, analysis]) {
    t.is(s.types.get('temporal_worker_task_slots_available'), 'gauge');
    t.is(s.types.get('temporal_num_pollers'), 'gauge');
  }
  t.is(reviews.types.get('temporal_workflow_task_schedule_to_start_latency'), 'histogram');
  t.is(reviews.types.get('temporal_sticky_cache_size'), 'gauge');
  t.is(analysis.types.get('temporal_activity_schedule_to_start_latency'), 'histogram');
  t.is(total(reviews, 'loan_review_worker_polling', { queue: 'reviews' }), 1);
  t.is(total(analysis, 'loan_review_worker_polling', { queue: 'analysis' }), 1);
  // Each activity counts where it runs: bookkeeping on the review queue, analyses and renders on the other.
  const both = (name: string, labels: Record<string, string> = {}) =>
    total(reviews, name, labels) + total(analysis, name, labels);
  for (const [name, labels] of [
    ['loan_review_reviews_finished_total', { status: 'completed' }],
    ['loan_review_pages_read_total', { source: 'text_layer' }],
    ['loan_review_findings_total', {}],
    ['loan_review_analysis_duration_seconds_count', { outcome: 'ok' }],
    ['loan_review_analysis_slot_wait_seconds_count', {}],
    ['loan_review_report_render_duration_seconds_count', { outcome: 'ok' }],
  ] as const)
    t.true(both(name, labels) >= 1, `${name} ${JSON.stringify(labels)}`);
});

/** Metric families the dashboard or the alert rules name (a histogram's by its family, not its series). */
async function namedMetrics(): Promise<Set<string>> {
  const text =
    (await readFile(new URL('deploy/grafana/loan-review.json', repo), 'utf8')) +
    (await readFile(new URL('deploy/prometheus/alerts.yml', repo), 'utf8'));
  return new Set([...text.matchAll(/\b((?:loan_review|temporal|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!));
}

test('the dashboard and the alert rules name only metrics the API and the workers export', async (t) => {
  await packageAnalysed();
  const scrapes = await Promise.all(Object.values(stack.opsUrls).map((url) => scrape(`${url}/metrics`)));
  const families = new Map(scrapes.flatMap((s) => [...s.types]));
  // A counter of the SDK's that nothing has incremented yet (workflow task failures, in a healthy run) is
  // not in a scrape: it must then be one the SDK's native library defines.
  const platform = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-gnu`;
  const core = await readFile(
    createRequire(import.meta.url).resolve(`@temporalio/core-bridge/releases/${platform}/index.node`),
  );
  const named = await namedMetrics();
  t.true(named.size >= 20, [...named].join(', '));
  for (const name of named) {
    const family = name.replace(/_(bucket|sum|count)$/, '');
    const exported =
      families.has(name) ||
      (families.get(family) === 'histogram' && family !== name) ||
      (name.startsWith('temporal_') && core.includes(name.replace(/^temporal_/, '')));
    t.true(exported, `${name} is exported`);
  }
});

test('no log line of the API or the workers holds the borrower data of a package', async (t) => {
  await packageAnalysed();
  // Written a turn of the event loop after they happen: the last of the review's are in by now.
  await new Promise((r) => setTimeout(r, 500));
  const files = (await readdir(stack.logDir)).filter((f) => /^(api|worker|analysis)[\w-]*\.log$/.test(f));
  t.true(files.includes('api.log') && files.includes('worker.log') && files.includes('analysis.log'));
  const borrower = [
    'Michael Jones',
    'Mary Stone',
    'Anywhere Street',
    'Somewhere Ave',
    'Somewhere Drive',
    'Steve Cole',
    'Amy Doe',
    '162,000',
    '162000',
    '14,147.26',
    '761.78',
    'closing disclosure.pdf',
  ];
  let lines = 0;
  for (const file of files) {
    const text = await readFile(join(stack.logDir, file), 'utf8');
    lines += text.split('\n').length;
    for (const value of borrower) t.false(text.includes(value), `${file} holds "${value}"`);
  }
  t.true(lines > 10, `${lines} lines read`);
  // The stack's own three processes write nothing but records of the one schema.
  for (const file of ['api.log', 'worker.log', 'analysis.log']) {
    const records = logRecords(await readFile(join(stack.logDir, file), 'utf8'));
    t.true(records.length > 0, file);
    for (const r of records) {
      t.regex(r.time, /^\d{4}-\d\d-\d\dT/);
      t.true(['debug', 'info', 'warn', 'error'].includes(r.level));
      t.is(typeof r.message, 'string');
    }
  }
});
