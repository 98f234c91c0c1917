// Traces: one OpenTelemetry trace from an HTTP request through the workflow update or start it makes, the
// workflow's run and every activity it schedules. The API makes the request's span (api/request-tracing.ts)
// and Temporal's OpenTelemetry interceptors the rest, carrying the context in Temporal headers. Spans are
// exported over OTLP/HTTP (protobuf) when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise no tracer provider
// is installed, spans are never made, and the interceptors pass nothing on. The SDK's modules are loaded
// only then: a process that does not trace does not pay for them at its start.
import type { Resource } from '@opentelemetry/resources';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config.js';
import type { WorkflowSpanSinks } from './workflow-spans.js';

export interface Tracing {
  resource: Resource;
  processor: SpanProcessor;
  /** The sink a worker's workflows export their spans through, to `processor` (src/telemetry/workflow-spans.ts). */
  workflowSinks: WorkflowSpanSinks;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/** `loan-review-api`, `loan-review-worker`: the service name spans carry. */
export function serviceName(role: 'api' | 'worker'): string {
  return `loan-review-${role}`;
}

/**
 * Installs the process's tracer provider exporting to `exporter` (tests pass an in-memory one), or to the
 * configured collector; undefined, and nothing installed, when neither is given.
 */
export async function startTracing(
  role: 'api' | 'worker',
  config: Pick<Config, 'telemetry'>,
  exporter?: SpanExporter,
): Promise<Tracing | undefined> {
  const endpoint = config.telemetry.otlpEndpoint;
  if (!exporter && !endpoint) return undefined;
  const [
    { OTLPTraceExporter },
    { Resource },
    { BasicTracerProvider, BatchSpanProcessor },
    { SyncContextManager },
    { makeWorkflowExporter },
  ] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('./sync-context.js'),
    import('@temporalio/interceptors-opentelemetry/lib/worker/index.js'),
  ]);
  const chosen = exporter ?? new OTLPTraceExporter({ url: `${endpoint}/v1/traces` });
  const resource = new Resource({ 'service.name': serviceName(role) });
  // Batched: a span costs the request a push onto a buffer, not a network round trip.
  const processor = new BatchSpanProcessor(chosen, { scheduledDelayMillis: exporter ? 100 : 2_000 });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  // Global: Temporal's interceptors and the request spans find the tracer there; W3C trace context is read
  // from and written to headers (a caller's own traceparent joins its trace). Parents are handed on
  // explicitly, not followed through awaits (src/telemetry/sync-context.ts).
  provider.register({ contextManager: new SyncContextManager() });
  return {
    resource,
    processor,
    workflowSinks: { exporter: makeWorkflowExporter(processor, resource) },
    shutdown: () => provider.shutdown(),
  };
}
