// Traces as a collector receives them from a tracing process (src/telemetry/tracing.ts): the API's request
// spans made by the SDK's tracer (api/request-tracing.ts), batched by its BatchSpanProcessor with the
// OTEL_BSP_* settings and exported over OTLP/HTTP to a collector stand-in; the sampler OTEL_TRACES_SAMPLER
// names; the context a request's work runs in; and the workflows' spans through their sink.
import test from 'ava';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { WorkflowInfo } from '@temporalio/workflow';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { measureRequests } from '../../../api/request-metrics.js';
import { requestTrace, traceRequests } from '../../../api/request-tracing.js';
import { loadConfig } from '../../../src/config.js';
import { silentLogger } from '../../../src/telemetry/logger.js';
import { startTracing, type Tracing } from '../../../src/telemetry/tracing.js';
import { traceCollector } from '../../support/otlp.js';

const CALLER = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

/**
 * A tracing process exporting to a collector stand-in of its own, with `env` on top of the defaults; every
 * trace kept (parentbased_always_on) unless `env` names a sampler.
 */
async function traced(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const collector = await traceCollector();
  t.teardown(() => collector.close());
  const config = loadConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    ...env,
  });
  const tracing = (await startTracing('api', config, silentLogger))!;
  t.teardown(() => tracing.shutdown());
  return { collector, tracing };
}

/**
 * An API answering GET /v1/reviews/:review_id with `status` (its handler's active span id in the body) and
 * any other path 404, its requests traced as the API's app traces them, with metrics or without.
 */
async function api(
  t: { teardown(fn: () => unknown): void },
  tracing: Tracing,
  o: { metrics?: boolean; status?: number } = {},
): Promise<string> {
  const app = express();
  app.use(o.metrics === false ? traceRequests(tracing.tracer) : measureRequests({ tracing: tracing.tracer }));
  app.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    next();
  });
  app.get('/v1/reviews/:review_id', async (_req, res) => {
    await sleep(5);
    // After an await: the request's span is still the active one, and the one it hands its calls.
    res.status(o.status ?? 200).json({
      active: trace.getActiveSpan()?.spanContext().spanId,
      handed: trace.getSpanContext(requestTrace(res)!)?.spanId,
    });
  });
  const server = app.listen(0, '127.0.0.1');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("a request's span: a server span named by method and route, with its answer, a new trace's root", async (t) => {
  const { collector, tracing } = await traced(t);
  const url = await api(t, tracing);
  const res = await fetch(`${url}/v1/reviews/r-1`);
  const body = (await res.json()) as { active: string; handed: string };
  await tracing.forceFlush();

  const [span, ...others] = collector.spans();
  t.is(others.length, 0);
  t.like(span, {
    service: 'loan-review-api',
    scope: 'loan-review-api',
    name: 'GET /v1/reviews/:review_id',
    parentSpanId: '',
    kind: SpanKind.SERVER + 1,
    status: SpanStatusCode.UNSET,
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/v1/reviews/:review_id',
      'http.response.status_code': '200',
      'request.id': 'req-1',
    },
  });
  t.regex(span!.traceId, /^[0-9a-f]{32}$/);
  t.is(body.active, span!.spanId, "the handler runs in the request's span, across its awaits");
  t.is(body.handed, span!.spanId, 'the trace the request hands its calls is its span');
});

test("a caller's traceparent makes the request's span its child, in its trace; metrics off alike", async (t) => {
  const { collector, tracing } = await traced(t);
  const url = await api(t, tracing, { metrics: false });
  await fetch(`${url}/v1/reviews/r-1`, { headers: { traceparent: `00-${CALLER}-${CALLER_SPAN}-01` } });
  await tracing.forceFlush();
  t.like(collector.spans(), [{ traceId: CALLER, parentSpanId: CALLER_SPAN, name: 'GET /v1/reviews/:review_id' }]);
});

test('a server error marks the span an error; a refusal does not', async (t) => {
  const { collector, tracing } = await traced(t);
  const url = await api(t, tracing, { status: 503 });
  await fetch(`${url}/v1/reviews/r-1`);
  await fetch(`${url}/nowhere`);
  await tracing.forceFlush();
  const spans = collector.spans();
  t.like(
    spans.find((s) => s.name === 'GET /v1/reviews/:review_id'),
    { status: SpanStatusCode.ERROR },
  );
  t.like(
    spans.find((s) => s.name === 'GET unmatched'),
    { status: SpanStatusCode.UNSET, attributes: { 'http.response.status_code': '404' } },
  );
});

test('unset, the sampler keeps about one trace in ten, by trace id', async (t) => {
  const { collector, tracing } = await traced(t, { OTEL_TRACES_SAMPLER: '' });
  for (let i = 0; i < 1_000; i++) tracing.tracer.startSpan(`root ${i}`).end();
  await tracing.forceFlush();
  // Binomial(1000, 0.1): 100 ± 9.5; the bounds are five deviations away.
  const kept = collector.spans().length;
  t.true(kept >= 50 && kept <= 150, `${kept} of 1000 kept`);
});

test('the sampler decides: a parent-based one follows a caller unsampled; always_off keeps nothing', async (t) => {
  const unsampled = await traced(t);
  const url = await api(t, unsampled.tracing);
  await fetch(`${url}/v1/reviews/r-1`, { headers: { traceparent: `00-${CALLER}-${CALLER_SPAN}-00` } });
  await fetch(`${url}/v1/reviews/r-2`);
  await unsampled.tracing.forceFlush();
  t.is(unsampled.collector.spans().length, 1);
  t.not(unsampled.collector.spans()[0]!.traceId, CALLER);

  const off = await traced(t, { OTEL_TRACES_SAMPLER: 'always_off' });
  const offUrl = await api(t, off.tracing);
  await fetch(`${offUrl}/v1/reviews/r-1`, { headers: { traceparent: `00-${CALLER}-${CALLER_SPAN}-01` } });
  await fetch(`${offUrl}/v1/reviews/r-2`);
  await off.tracing.forceFlush();
  t.is(off.collector.spans().length, 0);
});

test('spans leave in batches of OTEL_BSP_MAX_EXPORT_BATCH_SIZE, or once OTEL_BSP_SCHEDULE_DELAY passed', async (t) => {
  const { collector, tracing } = await traced(t, {
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
    OTEL_BSP_SCHEDULE_DELAY: '50',
  });
  for (let i = 0; i < 5; i++) tracing.tracer.startSpan(`span ${i}`).end();
  // The two full batches go at once; the fifth span once the delay has passed, without a flush.
  for (let i = 0; i < 100 && collector.spans().length < 5; i++) await sleep(10);
  t.is(collector.spans().length, 5);
  t.true(collector.requests.length >= 3);
});

test("a workflow's spans, handed out through the sink, reach the collector", async (t) => {
  const { collector, tracing } = await traced(t);
  const now: [number, number] = [Math.floor(Date.now() / 1000), 0];
  tracing.workflowSinks.exporter.export.fn({ workflowId: 'review-1' } as unknown as WorkflowInfo, [
    {
      name: 'RunWorkflow:reviewWorkflow',
      kind: SpanKind.INTERNAL,
      spanContext: { traceId: CALLER, spanId: CALLER_SPAN, traceFlags: 1 },
      startTime: now,
      endTime: now,
      duration: [0, 0],
      status: { code: SpanStatusCode.UNSET },
      attributes: {},
      links: [],
      events: [],
      ended: true,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
      instrumentationLibrary: { name: '@temporalio/interceptor-workflow' },
    },
  ]);
  await tracing.forceFlush();
  t.like(collector.spans(), [
    {
      service: 'loan-review-api',
      name: 'RunWorkflow:reviewWorkflow',
      traceId: CALLER,
      attributes: { workflowId: 'review-1' },
    },
  ]);
});
