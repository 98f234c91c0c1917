// Traces: one OpenTelemetry trace from an HTTP request through the workflow update or start it makes, the
// workflow's run and every activity it schedules. The API's tracer makes each request's span
// (api/request-tracing.ts) and Temporal's OpenTelemetry interceptors the rest, carrying the context in
// Temporal headers. OTEL_TRACES_SAMPLER (src/config.ts) decides which traces are kept. When
// OTEL_EXPORTER_OTLP_ENDPOINT is set, OpenTelemetry's SDK makes the spans (BasicTracerProvider), batches them
// (BatchSpanProcessor, with the OTEL_BSP_* settings) and exports them as OTLP/HTTP protobuf (OTLPTraceExporter,
// with its OTEL_EXPORTER_OTLP_* settings: headers, timeout, compression); the context follows awaits
// (AsyncLocalStorageContextManager). Otherwise no tracer provider is installed, spans are never made, and
// the interceptors pass nothing on. The SDK's modules are loaded only then: a process that does not trace
// does not pay for them at its start.
import { diag, DiagLogLevel, type Tracer } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config.js';
import type { Logger } from './logger.js';
import type { WorkflowSpanSinks } from './workflow-spans.js';

export interface Tracing {
  /** The tracer the API's request spans are made by (api/request-tracing.ts). */
  tracer: Tracer;
  /** The sink a worker's workflows export their spans through, to the batch processor (workflow-spans.ts). */
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
 * installed, without one. OpenTelemetry's own warnings and errors (spans dropped from a full queue, an
 * export the collector refused or did not answer) are written to `log`.
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
    { AsyncLocalStorageContextManager },
    { OTLPTraceExporter },
    { Resource },
    {
      AlwaysOffSampler,
      AlwaysOnSampler,
      BasicTracerProvider,
      BatchSpanProcessor,
      ParentBasedSampler,
      TraceIdRatioBasedSampler,
    },
    { makeWorkflowExporter },
  ] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@temporalio/interceptors-opentelemetry/lib/worker/index.js'),
  ]);
  const resource = Resource.default().merge(new Resource({ 'service.name': serviceName(role) }));
  // Batched: a request never waits for the collector.
  const processor = new BatchSpanProcessor(
    new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
    config.telemetry.spanBatches,
  );
  const { root, parentBased, ratio } = config.telemetry.sampler;
  const rootSampler: Sampler =
    root === 'always_on'
      ? new AlwaysOnSampler()
      : root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratio);
  const sampler = parentBased ? new ParentBasedSampler({ root: rootSampler }) : rootSampler;
  const provider = new BasicTracerProvider({ resource, sampler, spanProcessors: [processor] });
  // Global: Temporal's interceptors find the tracer there; W3C trace context is read from and written to
  // headers (a caller's own traceparent joins its trace), and the active span follows awaits.
  provider.register({ contextManager: new AsyncLocalStorageContextManager() });
  return {
    tracer: provider.getTracer(serviceName(role)),
    workflowSinks: { exporter: makeWorkflowExporter(processor, resource) },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** What OpenTelemetry passes beside a message (errors, response bodies), as one field. */
function diagFields(args: unknown[]): { detail?: string } {
  return args.length === 0 ? {} : { detail: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ') };
}
