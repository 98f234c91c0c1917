// Spans encoded as they end and sent in batches: what a collector decodes from a batch is what it decodes
// from OpenTelemetry's own serializer given the same spans, and batches go as OpenTelemetry's
// BatchSpanProcessor sends them (full, or after the delay; one at a time; spans past the queue dropped).
import test from 'ava';
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SamplingDecision,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OtlpBatchProcessor } from '../../../src/telemetry/otlp-batch-processor.js';
import type { Logger } from '../../../src/telemetry/log.js';
import { ProtoWriter } from '../../../src/telemetry/otlp-span-encoding.js';
import { decodeTraceRequest, receivedSpans } from '../../support/otlp.js';

/** Spans of every shape a span can take, ended in order, from two scopes of two resources. */
function variedSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const providers = ['loan-review-api', 'loan-review-worker'].map(
    (service) =>
      new BasicTracerProvider({
        resource: new Resource({ 'service.name': service, 'deployment.replica': 3 }),
        spanProcessors: [new SimpleSpanProcessor(memory)],
      }),
  );
  for (const provider of providers) {
    const api = provider.getTracer('loan-review-api');
    const temporal = provider.getTracer('@temporalio/interceptor-client', '1.24.0');
    const request = api.startSpan('POST /v1/reviews', {
      kind: SpanKind.SERVER,
      attributes: {
        'http.route': '/v1/reviews',
        'http.response.status_code': 201,
        'retry.delay': -1.5,
        'offset.negative': -42,
        'bytes.large': 2 ** 40,
        'bytes.unsafe': 2 ** 60,
        sandbox: false,
        'codes.list': ['APR-001', 'DOC-011'],
        'amounts.list': [1, 2.5, -3],
        'flags.list': [true, false],
        'text.non_ascii': 'Préstamo — 贷款',
        // Nested lengths of two and three varint bytes.
        'text.long': 'x'.repeat(300),
        'text.longer': 'y'.repeat(20_000),
      },
    });
    request.addEvent('rate-limit checked', { remaining: 99 });
    request.addEvent('body read');
    const child = temporal.startSpan(
      'StartWorkflow:reviewWorkflow',
      {
        kind: SpanKind.CLIENT,
        links: [
          {
            context: {
              traceId: '0af7651916cd43dd8448eb211c80319c',
              spanId: 'b7ad6b7169203331',
              traceFlags: TraceFlags.SAMPLED,
              traceState: createTraceState('vendor=abc,other=1'),
            },
            attributes: { reason: 'update' },
          },
        ],
      },
      // A child: the request's span as its parent.
      trace.setSpan(ROOT_CONTEXT, request),
    );
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'workflow already started' });
    child.end();
    const internal = api.startSpan('analyse', { kind: SpanKind.INTERNAL });
    internal.setStatus({ code: SpanStatusCode.OK });
    internal.end();
    request.end();
  }
  return memory.getFinishedSpans();
}

/** Sends `spans` through a processor and returns the one request it makes; its warnings go to `warn`. */
async function viaProcessor(spans: ReadableSpan[], warn: Logger['warn']): Promise<Uint8Array> {
  const sent: Uint8Array[] = [];
  const processor = new OtlpBatchProcessor(
    {
      export: (request, done) => {
        sent.push(request);
        done({ code: ExportResultCode.SUCCESS });
      },
      shutdown: async () => {},
    },
    { scheduledDelayMillis: 60_000, maxExportBatchSize: 512, maxQueueSize: 2048, exportTimeoutMillis: 30_000 },
    { warn },
  );
  for (const span of spans) processor.onEnd(span);
  await processor.forceFlush();
  if (sent.length !== 1) throw new Error(`${sent.length} requests`);
  return sent[0]!;
}

test("a batch decodes exactly as OpenTelemetry's own serializer's request for the same spans", async (t) => {
  const spans = variedSpans();
  t.is(spans.length, 6);
  const ours = await viaProcessor(spans, (message) => t.fail(message));
  const theirs = ProtobufTraceSerializer.serializeRequest(spans)!;
  t.deepEqual(decodeTraceRequest(ours), decodeTraceRequest(theirs));
  const received = receivedSpans(ours);
  t.deepEqual(
    received.map((s) => `${s.service} ${s.scope} ${s.name}`),
    spans.map((s) => `${s.resource.attributes['service.name']} ${s.instrumentationLibrary.name} ${s.name}`),
  );
  // Smaller: defaults are left out, as protobuf allows.
  t.true(ours.length < theirs.length, `${ours.length} < ${theirs.length}`);
});

test('nanosecond times are exact past 2^53 (fixed64 from [seconds, nanoseconds])', (t) => {
  const cases: [number, number][] = [
    [0, 0],
    [1, 999_999_999],
    [1_795_000_000, 123_456_789],
    [2 ** 32 - 1, 999_999_999],
    [65_535, 1],
    [65_536, 0],
  ];
  for (const [seconds, nanos] of cases) {
    const w = new ProtoWriter(4);
    w.time(1, [seconds, nanos]);
    const bytes = Buffer.from(w.view());
    t.is(bytes[0], 0x09, 'field 1, 64-bit');
    t.is(bytes.readBigUInt64LE(1), BigInt(seconds) * 1_000_000_000n + BigInt(nanos), `${seconds}.${nanos}`);
  }
});

test('a nested message longer than 127 bytes gets its longer length prefix in place', (t) => {
  for (const size of [127, 128, 16_383, 16_384, 3_000_000]) {
    const w = new ProtoWriter(16);
    w.begin(1);
    w.string(2, 'z'.repeat(size));
    w.uint(3, 7);
    w.end();
    w.uint(4, 1);
    const bytes = Buffer.from(w.view());
    const inner = Buffer.concat([
      Buffer.from([0x12]),
      varint(size),
      Buffer.from('z'.repeat(size)),
      Buffer.from([0x18, 7]),
    ]);
    t.deepEqual(bytes, Buffer.concat([Buffer.from([0x0a]), varint(inner.length), inner, Buffer.from([0x20, 1])]));
  }
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (let v = n; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      out.push(v);
      return Buffer.from(out);
    }
    out.push((v % 128) | 128);
  }
}

const ok = { code: ExportResultCode.SUCCESS };

/** A processor over an exporter whose calls the test answers. */
function harness(
  settings: { delay?: number; batch?: number; queue?: number; timeout?: number; answerFrom?: number } = {},
) {
  const calls: { spans: number; done: (r: ExportResult) => void }[] = [];
  const warnings: string[] = [];
  let shutDown = false;
  const processor = new OtlpBatchProcessor(
    {
      export: (request, done) => {
        calls.push({ spans: receivedSpans(request).length, done });
        // Calls from this one on are answered at once (a test that times out the ones before).
        if (settings.answerFrom !== undefined && calls.length > settings.answerFrom) done(ok);
      },
      shutdown: async () => {
        shutDown = true;
      },
    },
    {
      scheduledDelayMillis: settings.delay ?? 60_000,
      maxExportBatchSize: settings.batch ?? 3,
      maxQueueSize: settings.queue ?? 10,
      exportTimeoutMillis: settings.timeout ?? 30_000,
    },
    { warn: (message, fields) => warnings.push(`${message} ${JSON.stringify(fields)}`) },
  );
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('test');
  // Recorded, so ended through the processor, but not sampled: never to be exported.
  const unsampled = new BasicTracerProvider({
    spanProcessors: [processor],
    sampler: { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => 'record only' },
  }).getTracer('test');
  return {
    processor,
    calls,
    warnings,
    shutDown: () => shutDown,
    end: (n: number, from = tracer) => {
      for (let i = 0; i < n; i++) from.startSpan(`span ${i}`).end();
    },
    unsampled,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('a full batch goes at once; the next waits for it, then goes', async (t) => {
  const h = harness({ batch: 3 });
  h.end(2);
  t.is(h.calls.length, 0, 'two spans of three wait for the delay');
  h.end(1);
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [3],
  );
  h.end(4);
  t.is(h.calls.length, 1, 'one batch at a time');
  h.calls[0]!.done(ok);
  await tick();
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [3, 3],
    'the next full batch follows the answer',
  );
  h.calls[1]!.done(ok);
  const flushing = h.processor.forceFlush();
  await tick();
  h.calls[2]!.done(ok);
  await flushing;
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [3, 3, 1],
  );
});

test('a batch not full goes once the delay has passed', async (t) => {
  const h = harness({ delay: 20, batch: 100 });
  h.end(5);
  t.is(h.calls.length, 0);
  await new Promise((r) => setTimeout(r, 60));
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [5],
  );
});

test('spans past the queue are dropped, not waited for; unsampled spans are never sent', async (t) => {
  const h = harness({ batch: 5, queue: 5 });
  h.end(5);
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [5],
  );
  // While those 5 are on their way, the queue takes 5 more; 2 are dropped.
  h.end(7);
  h.calls[0]!.done(ok);
  await tick();
  h.end(2, h.unsampled);
  h.calls[1]!.done(ok);
  await h.processor.forceFlush();
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [5, 5],
    'the 2 spans past the queue, and the unsampled ones, are gone',
  );
  t.deepEqual(h.warnings, [], 'the drop is told with the next span taken');
  h.end(1);
  t.deepEqual(h.warnings, ['spans dropped: the export queue was full {"spans":2,"max_queue_size":5}']);
});

test('an export not answered within the timeout lets the next batch go', async (t) => {
  const h = harness({ batch: 2, timeout: 20, answerFrom: 1 });
  h.end(4);
  t.is(h.calls.length, 1);
  await new Promise((r) => setTimeout(r, 60));
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [2, 2],
  );
  t.deepEqual(h.warnings, ['span export failed {"error":"Error: 2 spans not answered within 20 ms"}']);
});

test('a batch the collector refuses is logged, and the next one still goes', async (t) => {
  const h = harness({ batch: 2 });
  h.end(4);
  h.calls[0]!.done({ code: ExportResultCode.FAILED, error: new Error('collector answered 503') });
  await tick();
  t.deepEqual(h.warnings, ['span export failed {"error":"Error: collector answered 503"}']);
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [2, 2],
  );
});

test('forceFlush waits for the batch on its way; shutdown sends the rest and stops the exporter', async (t) => {
  const h = harness({ batch: 2 });
  h.end(3);
  let flushed = false;
  const flushing = h.processor.forceFlush().then(() => (flushed = true));
  await tick();
  t.false(flushed, 'the batch on its way is not answered yet');
  h.calls[0]!.done(ok);
  await tick();
  h.calls[1]!.done(ok);
  await flushing;
  t.deepEqual(
    h.calls.map((c) => c.spans),
    [2, 1],
  );
  h.end(1);
  const stopping = h.processor.shutdown();
  await tick();
  h.calls[2]!.done(ok);
  await stopping;
  t.true(h.shutDown());
  h.end(1);
  await h.processor.forceFlush();
  t.is(h.calls.length, 3, 'nothing is sent after shutdown');
});

test('a span that cannot be encoded is dropped and told; the spans around it arrive whole', async (t) => {
  const warnings: string[] = [];
  const [first, second, third] = variedSpans();
  // Fails half-way through its record: its status is read after its ids, name, times and attributes.
  const broken = Object.create(second!, {
    status: {
      get() {
        throw new Error('unreadable');
      },
    },
  }) as ReadableSpan;
  // An id that is not hex: its bytes are what it held, and the message still decodes.
  const odd = Object.create(third!, {
    parentSpanId: { value: 'not-hex!' },
  }) as ReadableSpan;
  const request = await viaProcessor([first!, broken, odd], (message, fields) =>
    warnings.push(`${message} ${JSON.stringify(fields)}`),
  );
  t.deepEqual(warnings, [`span dropped: it could not be encoded {"span":"${second!.name}"}`]);
  t.deepEqual(
    receivedSpans(request).map((s) => [s.name, s.parentSpanId]),
    [
      [first!.name, first!.parentSpanId],
      [third!.name, ''],
    ],
  );
});
