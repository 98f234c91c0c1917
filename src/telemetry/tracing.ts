// Traces: one OpenTelemetry trace from an HTTP request through the workflow update or start it makes, the
// workflow's run and every activity it schedules. The API makes the request's span (api/request-tracing.ts,
// in batches: src/telemetry/request-spans.ts) and Temporal's OpenTelemetry interceptors the rest, carrying
// the context in Temporal headers. OTEL_TRACES_SAMPLER (src/config.ts) decides which traces are kept. Spans are
// exported over OTLP/HTTP (protobuf) when OTEL_EXPORTER_OTLP_ENDPOINT is set, through OpenTelemetry's OTLP
// transport (its OTEL_EXPORTER_OTLP_* settings: headers, timeout, compression, retries), each span encoded
// as it ends (src/telemetry/otlp-batch-processor.ts); otherwise no tracer provider is installed, spans are
// never made, and the interceptors pass nothing on. The SDK's modules are loaded only then: a process that
// does not trace does not pay for them at its start.
import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config.js';
import type { Logger } from './log.js';
import type { RequestSpans } from './request-spans.js';
import type { WorkflowSpanSinks } from './workflow-spans.js';

export interface Tracing {
  resource: Resource;
  processor: SpanProcessor;
  /** The API's request spans (src/telemetry/request-spans.ts), made in batches into `processor`. */
  requestSpans: RequestSpans;
  /** The sink a worker's workflows export their spans through, to `processor` (src/telemetry/workflow-spans.ts). */
  workflowSinks: WorkflowSpanSinks;
  /** Sends every span ended so far. */
  forceFlush(): Promise<void>;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/** `loan-review-api`, `loan-review-worker`: the service name spans carry. */
export function serviceName(role: 'api' | 'worker'): string {
  return `loan-review-${role}`;
}

/**
 * Installs the process's tracer provider exporting to the configured collector; undefined, and nothing
 * installed, without one. OpenTelemetry's own warnings and errors (a collector's partial refusals, a
 * transport's failures) and the export's are written to `log`.
 */
export async function startTracing(
  role: 'api' | 'worker',
  config: Pick<Config, 'telemetry'>,
  log: Logger,
): Promise<Tracing | undefined> {
  const endpoint = config.telemetry.otlpEndpoint;
  if (!endpoint) return undefined;
  diag.setLogger(
    {
      error: (message, ...args) => log.error(message, diagFields(args)),
      warn: (message, ...args) => log.warn(message, diagFields(args)),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const [
    { convertLegacyHttpOptions, createOtlpHttpExportDelegate },
    { ProtobufTraceSerializer },
    { Resource },
    { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, ParentBasedSampler, Tracer, TraceIdRatioBasedSampler },
    { OtlpBatchProcessor },
    { RequestSpans },
    { SyncContextManager },
    { makeWorkflowExporter },
  ] = await Promise.all([
    import('@opentelemetry/otlp-exporter-base/node-http'),
    import('@opentelemetry/otlp-transformer'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('./otlp-batch-processor.js'),
    import('./request-spans.js'),
    import('./sync-context.js'),
    import('@temporalio/interceptors-opentelemetry/lib/worker/index.js'),
  ]);
  // The transport OpenTelemetry's OTLPTraceExporter builds, fed the batch's bytes as they are.
  const transport = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: `${endpoint}/v1/traces` }, 'TRACES', 'v1/traces', {
      'User-Agent': `${serviceName(role)} (OTLP/HTTP)`,
      'Content-Type': 'application/x-protobuf',
    }),
    {
      serializeRequest: (request: Uint8Array) => request,
      deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
    },
  );
  const resource = new Resource({ 'service.name': serviceName(role) });
  // Batched: a span costs the request its encoding into a buffer, not a network round trip.
  const processor = new OtlpBatchProcessor(transport, config.telemetry.spanBatches, log);
  const { root, parentBased, ratio } = config.telemetry.sampler;
  const rootSampler: Sampler =
    root === 'always_on'
      ? new AlwaysOnSampler()
      : root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratio);
  const sampler = parentBased ? new ParentBasedSampler({ root: rootSampler }) : rootSampler;
  const provider = new BasicTracerProvider({ resource, sampler, spanProcessors: [processor] });
  const tracer = provider.getTracer(serviceName(role));
  const requestSpans = new RequestSpans({
    sampler,
    processor,
    resource,
    scope: { name: serviceName(role) },
    // The limits the SDK's own spans are held to (OTEL_SPAN_ATTRIBUTE_* and OTEL_ATTRIBUTE_*).
    limits: tracer instanceof Tracer ? tracer.getSpanLimits() : {},
  });
  // Global: Temporal's interceptors find the tracer there; W3C trace context is read
  // from and written to headers (a caller's own traceparent joins its trace). Parents are handed on
  // explicitly, not followed through awaits (src/telemetry/sync-context.ts).
  provider.register({ contextManager: new SyncContextManager() });
  return {
    resource,
    processor,
    requestSpans,
    workflowSinks: { exporter: makeWorkflowExporter(processor, resource) },
    forceFlush: () => {
      requestSpans.flush();
      return processor.forceFlush();
    },
    shutdown: () => {
      requestSpans.flush();
      return provider.shutdown();
    },
  };
}

/** What OpenTelemetry passes beside a message (errors, response bodies), as one field. */
function diagFields(args: unknown[]): { detail?: string } {
  return args.length === 0 ? {} : { detail: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ') };
}
