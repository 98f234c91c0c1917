// One trace from an HTTP request to every activity it causes: the API's request span, the client's
// update-with-start of the review's run with its create, the workflow's run and each activity it schedules
// and runs. Shown in this process as a collector receives it over OTLP/HTTP: an API app and a
// worker of its own task queue over the suite's Temporal, Postgres and MinIO, both tracing to a collector
// stand-in that decodes what it is sent.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from '../../activities/index.js';
import { createApp } from '../../api/app.js';
import { ReviewWorkflows } from '../../api/review-workflow.js';
import {
  createTemporalClient,
  temporalConnectionOptions,
  temporalDataConverter,
} from '../../src/temporal/connection.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { startTracing } from '../../src/telemetry/tracing.js';
import { ReviewWorkers } from '../../worker/review-workers.js';
import { ensureWorkflowBundle } from '../../worker/workflow-bundle.js';
import { pdf } from '../support/fixtures.js';
import { type ReceivedSpan, traceCollector } from '../support/otlp.js';
import { call, form } from '../support/http.js';
import { storage } from '../support/objects.js';
import { waitForReview } from '../support/reviews.js';
import { closeShared, config, db, newOrganization } from '../support/stack.js';

Runtime.install({ logger: new DefaultLogger('WARN') });
test.after.always(closeShared);

function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

test('a create is one trace: request → update-with-start → the run → each activity scheduled → its run', async (t) => {
  const collector = await traceCollector();
  t.teardown(() => collector.close());
  const tracing = (await startTracing(
    'api',
    {
      telemetry: {
        ...config.telemetry,
        otlpEndpoint: collector.url,
        // Every trace kept: the test follows one create's.
        sampler: { root: 'always_on', parentBased: true, ratio: 1 },
        spanBatches: { ...config.telemetry.spanBatches, scheduledDelayMillis: 100 },
      },
    },
    silentLogger,
  ))!;
  t.teardown(() => tracing.shutdown());
  const taskQueue = `tracing-${randomUUID()}`;
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  t.teardown(() => connection.close());
  const worker = await ReviewWorkers.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    workflowBundle: { codePath: (await ensureWorkflowBundle('traced')).path },
    activities: createActivities({ config, sql: db(), storage }),
    analyses: 1,
    dataConverter: temporalDataConverter(config),
    tracing,
  });
  const temporal = createTemporalClient(config, [new OpenTelemetryWorkflowClientInterceptor()]);
  t.teardown(() => temporal.connection.close());
  const workflows = new ReviewWorkflows(temporal, taskQueue);
  const app = createApp({
    config,
    sql: db(),
    storage,
    temporal,
    workflows,
    log: silentLogger,
    // As production runs: metrics on too, whose request listener starts and ends the request's span.
    metrics: true,
    tracing: tracing.tracer,
  });
  const server = createServer(app).listen(0, '127.0.0.1');
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  let sandboxRequest = '';
  await worker.runUntil(async () => {
    const org = await newOrganization();
    // A sandbox create: its workflow's update answers it (the canned report before the answer).
    const sandbox = await call(url, 'POST', '/reviews', {
      key: org.sandboxKey,
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]),
    });
    t.is(sandbox.status, 201, sandbox.text);
    sandboxRequest = sandbox.headers.get('x-request-id') ?? '';
    const sandboxId = (sandbox.body as { review_id: string }).review_id;
    const res = await call(url, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([
        {
          name: 'cd.pdf',
          data: await readFile(new URL('../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url)),
        },
      ]),
    });
    t.is(res.status, 201, res.text);
    const reviewId = (res.body as { review_id: string }).review_id;
    await waitForReview(org.liveKey, reviewId, (r) => r.status === 'completed', 90_000, url);
    // A run's span ends with the run, which goes on after its review is completed (its webhooks): both
    // runs are waited for to their end, so their spans are finished before the worker stops.
    for (const id of [reviewId, sandboxId]) await temporal.workflow.getHandle(id).result();
  });
  await tracing.forceFlush();

  const spans = collector.spans();
  const request = spans.find((s) => s.name === 'POST /v1/reviews' && s.attributes['request.id'] !== sandboxRequest)!;
  const trace = spans.filter((s) => s.traceId === request.traceId);
  const parentOf = (span: ReceivedSpan) => trace.find((s) => s.spanId === span.parentSpanId);
  const start = only(trace, 'UpdateWithStartWorkflow:createReview');
  t.is(parentOf(start), request, 'the run is started with its create under the request');
  const run = only(trace, 'RunWorkflow:reviewWorkflow');
  t.is(parentOf(run), start, 'the run is under its start');
  // The create's ingest is scheduled by its update's handler, within the run's trace.
  const ingestScheduled = only(trace, 'StartActivity:createReview');
  t.truthy(parentOf(ingestScheduled), 'the ingest is scheduled within the trace');
  t.is(parentOf(only(trace, 'RunActivity:createReview')), ingestScheduled, 'the ingest runs under its scheduling');
  for (const activity of ['analyseToDraft', 'renderRelease', 'publishRelease']) {
    const scheduled = trace.filter((s) => s.name === `StartActivity:${activity}`);
    t.true(scheduled.length >= 1, `the run schedules ${activity}`);
    for (const s of scheduled) t.is(parentOf(s), run, `${activity} is scheduled by the run`);
    const ran = trace.filter((s) => s.name === `RunActivity:${activity}`);
    t.true(ran.length >= 1, `${activity} runs`);
    for (const r of ran) t.true(scheduled.includes(parentOf(r)!), `${activity} runs under its scheduling`);
  }
  t.is(request.service, 'loan-review-api');

  // The sandbox create: a child of the caller's own span (its traceparent), its update-with-start under it,
  // the workflow's run under that.
  const sandbox = spans.find((s) => s.attributes['request.id'] === sandboxRequest)!;
  t.is(sandbox.traceId, '0af7651916cd43dd8448eb211c80319c');
  t.is(sandbox.parentSpanId, 'b7ad6b7169203331');
  const inSandbox = spans.filter((s) => s.traceId === sandbox.traceId);
  const updateWithStart = only(inSandbox, 'UpdateWithStartWorkflow:createReview');
  t.is(updateWithStart.parentSpanId, sandbox.spanId);
  t.is(only(inSandbox, 'RunWorkflow:reviewWorkflow').parentSpanId, updateWithStart.spanId);
  // An int64 is decoded as a decimal string.
  t.like(request.attributes, { 'http.route': '/v1/reviews', 'http.response.status_code': '201' });
});
