// The API's request spans, made in batches from what each request notes as it ends: they are the server
// spans the SDK's tracer would make (its sampler decides, its limits apply), they join a caller's trace,
// the context a request hands its calls is its span's, and they reach the span processor a batch at a time.
import test from 'ava';
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SpanLimits,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { OtlpBatchProcessor } from '../../../src/telemetry/otlp-batch-processor.js';
import { RequestSpans } from '../../../src/telemetry/request-spans.js';
import { receivedSpans } from '../../support/otlp.js';

const resource = new Resource({ 'service.name': 'loan-review-api' });
const scope = { name: 'loan-review-api' };

function spansTo(
  got: ReadableSpan[],
  o: { sampler?: Sampler; limits?: SpanLimits; batch?: number; delayMillis?: number } = {},
): RequestSpans {
  return new RequestSpans({
    sampler: o.sampler ?? new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    processor: { onEnd: (span) => got.push(span) },
    resource,
    scope,
    limits: o.limits ?? { attributeCountLimit: 128 },
    ...(o.batch === undefined ? {} : { batch: o.batch }),
    ...(o.delayMillis === undefined ? {} : { delayMillis: o.delayMillis }),
  });
}

/** A caller's span: W3C trace context, as a traceparent header carries it. */
function callerContext(flags: TraceFlags): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: flags,
    isRemote: true,
    traceState: createTraceState('vendor=abc'),
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a request's span: a server span named by method and route, with its answer, a new trace's root", async (t) => {
  const requests: Uint8Array[] = [];
  const processor = new OtlpBatchProcessor(
    {
      export: (request, done) => {
        requests.push(request.slice());
        done({ code: ExportResultCode.SUCCESS });
      },
      shutdown: async () => {},
    },
    { scheduledDelayMillis: 10, maxQueueSize: 100, maxExportBatchSize: 100, exportTimeoutMillis: 1_000 },
    { warn: () => {} },
  );
  const spans = new RequestSpans({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    processor,
    resource,
    scope,
    limits: {},
  });
  const span = spans.begin('GET', ROOT_CONTEXT);
  await sleep(20);
  spans.end(span, '/v1/reviews/:review_id', 200, 'req-1');
  spans.flush();
  await processor.forceFlush();

  const [received] = requests.flatMap(receivedSpans);
  t.like(received, {
    service: 'loan-review-api',
    scope: 'loan-review-api',
    name: 'GET /v1/reviews/:review_id',
    parentSpanId: '',
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/v1/reviews/:review_id',
      'http.response.status_code': '200',
      'request.id': 'req-1',
    },
  });
  t.regex(received!.traceId, /^[0-9a-f]{32}$/);
  t.regex(received!.spanId, /^[0-9a-f]{16}$/);
  t.is(requests.length, 1);
});

test("a request's span times are the wall clock's, its duration the request's", async (t) => {
  const got: ReadableSpan[] = [];
  const spans = spansTo(got);
  const before = Date.now();
  const span = spans.begin('POST', ROOT_CONTEXT);
  await sleep(30);
  spans.end(span, '/v1/reviews', 201, 'req-2');
  spans.flush();
  const [made] = got;
  const ms = ([s, ns]: [number, number]) => s * 1e3 + ns / 1e6;
  t.is(made!.kind, SpanKind.SERVER);
  t.true(Math.abs(ms(made!.startTime) - before) < 5, `started ${ms(made!.startTime) - before} ms from the clock`);
  t.true(ms(made!.duration) >= 29 && ms(made!.duration) < 1_000, `took ${ms(made!.duration)} ms`);
  t.deepEqual(made!.status, { code: SpanStatusCode.UNSET });
});

test("a caller's traceparent makes the request's span its child, in its trace, with its trace state", (t) => {
  const got: ReadableSpan[] = [];
  const spans = spansTo(got);
  spans.end(spans.begin('POST', callerContext(TraceFlags.SAMPLED)), '/v1/reviews', 201, 'req-3');
  spans.flush();
  const [made] = got;
  t.is(made!.spanContext().traceId, '0af7651916cd43dd8448eb211c80319c');
  t.is(made!.parentSpanId, 'b7ad6b7169203331');
  t.is(made!.spanContext().traceState?.serialize(), 'vendor=abc');
  t.not(made!.spanContext().spanId, 'b7ad6b7169203331');
});

test('the trace a request hands its calls is its own span, the same before and after it ends', (t) => {
  const got: ReadableSpan[] = [];
  const spans = spansTo(got);
  const span = spans.begin('POST', ROOT_CONTEXT);
  const handed = trace.getSpanContext(span.trace())!;
  t.is(handed.traceFlags, TraceFlags.SAMPLED);
  t.deepEqual(trace.getSpanContext(span.trace()), handed, 'asked twice, one span');
  spans.end(span, '/v1/reviews', 201, 'req-4');
  spans.flush();
  t.is(got[0]!.spanContext().spanId, handed.spanId);
  t.is(got[0]!.spanContext().traceId, handed.traceId);
});

test('the sampler decides: nothing is made of a span it drops, whose trace still goes to the calls unsampled', (t) => {
  const cases: [string, Sampler, Context][] = [
    ['always_off', new AlwaysOffSampler(), ROOT_CONTEXT],
    ['traceidratio 0', new TraceIdRatioBasedSampler(0), ROOT_CONTEXT],
    [
      'parentbased, an unsampled caller',
      new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      callerContext(TraceFlags.NONE),
    ],
  ];
  for (const [name, sampler, parent] of cases) {
    const got: ReadableSpan[] = [];
    const spans = spansTo(got, { sampler });
    const span = spans.begin('GET', parent);
    const handed = trace.getSpanContext(span.trace())!;
    t.true(trace.isSpanContextValid(handed), name);
    t.is(handed.traceFlags, TraceFlags.NONE, name);
    spans.end(span, '/v1/reviews', 200, 'req-5');
    spans.flush();
    t.deepEqual(got, [], name);
  }
  const kept: ReadableSpan[] = [];
  const sampled = spansTo(kept, { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) });
  sampled.end(sampled.begin('GET', callerContext(TraceFlags.SAMPLED)), '/v1/reviews', 200, 'req-6');
  sampled.flush();
  t.is(kept.length, 1, "a sampled caller's request is kept where the root sampler keeps none");
});

test('a server error marks the span an error; a refusal does not', (t) => {
  const got: ReadableSpan[] = [];
  const spans = spansTo(got);
  spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews/:review_id', 503, 'req-7');
  spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews/:review_id', 404, 'req-8');
  spans.flush();
  t.deepEqual(
    got.map((s) => s.status.code),
    [SpanStatusCode.ERROR, SpanStatusCode.UNSET],
  );
});

test("the SDK's attribute limits hold: values cut to the length limit, attributes past the count dropped", (t) => {
  const got: ReadableSpan[] = [];
  const cut = spansTo(got, { limits: { attributeValueLengthLimit: 4, attributeCountLimit: 128 } });
  cut.end(cut.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, 'a-long-request-id');
  cut.flush();
  t.like(got[0]!.attributes, { 'http.route': '/v1/', 'request.id': 'a-lo', 'http.response.status_code': 200 });
  const counted = spansTo(got, { limits: { attributeCountLimit: 2 } });
  counted.end(counted.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, 'req-9');
  counted.flush();
  t.is(Object.keys(got[1]!.attributes).length, 2);
  t.is(got[1]!.droppedAttributesCount, 2);
});

test('spans reach the processor once a batch of requests has ended, or after the delay, and on flush', async (t) => {
  const got: ReadableSpan[] = [];
  const spans = spansTo(got, { batch: 3, delayMillis: 40 });
  for (let i = 0; i < 2; i++) spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, `a${i}`);
  t.is(got.length, 0, 'two of three: waiting');
  spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, 'a2');
  t.is(got.length, 3, 'the third fills the batch');
  spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, 'b0');
  t.is(got.length, 3);
  await sleep(80);
  t.is(got.length, 4, 'the delay passed');
  spans.end(spans.begin('GET', ROOT_CONTEXT), '/v1/reviews', 200, 'c0');
  spans.flush();
  t.deepEqual(
    got.map((s) => s.attributes['request.id']),
    ['a0', 'a1', 'a2', 'b0', 'c0'],
  );
});
