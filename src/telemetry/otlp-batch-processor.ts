// The span processor of a tracing process: OpenTelemetry's BatchSpanProcessor, except that a span is written
// in OTLP's encoding as it ends (src/telemetry/otlp-span-encoding.ts says why) and a batch is the bytes
// of an ExportTraceServiceRequest. Its batching is BatchSpanProcessor's, and so are its settings
// (OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE, OTEL_BSP_EXPORT_TIMEOUT,
// read by src/config.ts): a batch is sent once it holds the batch size or the delay has passed, one at a
// time; spans past the queue's size are dropped (and counted in a warning), never waited for. A batch the
// collector refuses or does not answer is logged and not sent again (the transport has retried it).
import { context, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing, type ExportResult } from '@opentelemetry/core';
import type { IResource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config.js';
import type { Logger } from './log.js';
import { ProtoWriter, writeResource, writeScope, writeSpan } from './otlp-span-encoding.js';

/** Where a batch goes: an OTLP exporter's delegate, or a test's. */
export interface EncodedSpanExporter {
  export(request: Uint8Array, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

export type BatchSettings = Config['telemetry']['spanBatches'];

interface ScopeSpans {
  scope: ReadableSpan['instrumentationLibrary'];
  spans: ProtoWriter;
}

/** One request's spans, encoded, by resource and instrumentation scope. */
class Batch {
  size = 0;
  private readonly resources = new Map<IResource, Map<string, ScopeSpans>>();

  /** Encodes `span` into the batch; false, and the batch as it was, when the span cannot be encoded. */
  add(span: ReadableSpan): boolean {
    let scopes = this.resources.get(span.resource);
    if (!scopes) this.resources.set(span.resource, (scopes = new Map()));
    const scope = span.instrumentationLibrary;
    const key = `${scope.name}@${scope.version ?? ''}:${scope.schemaUrl ?? ''}`;
    let group = scopes.get(key);
    if (!group) scopes.set(key, (group = { scope, spans: new ProtoWriter() }));
    const before = group.spans.length;
    try {
      writeSpan(group.spans, 2, span);
    } catch {
      // Spans end inside requests and workflow activations: one that cannot be encoded is not theirs to fail.
      group.spans.truncate(before);
      return false;
    }
    this.size++;
    return true;
  }

  /** The ExportTraceServiceRequest. */
  request(): Uint8Array {
    let bytes = 0;
    for (const scopes of this.resources.values()) for (const g of scopes.values()) bytes += g.spans.length;
    const w = new ProtoWriter(bytes + 1024);
    for (const [resource, scopes] of this.resources) {
      w.begin(1);
      w.begin(1);
      writeResource(w, resource.attributes);
      w.end();
      for (const { scope, spans } of scopes.values()) {
        w.begin(2);
        w.begin(1);
        writeScope(w, scope);
        w.end();
        w.raw(undefined, spans.view());
        if (scope.schemaUrl) w.string(3, scope.schemaUrl);
        w.end();
      }
      w.end();
    }
    // The writer is this request's alone: its bytes need no copy.
    return w.view();
  }
}

export class OtlpBatchProcessor implements SpanProcessor {
  /** Full batches first; spans join the last. */
  private batches: Batch[] = [];
  private queued = 0;
  private dropped = 0;
  /** The batch on its way, sent when it filled or its delay passed. */
  private sending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly exporter: EncodedSpanExporter,
    private readonly settings: BatchSettings,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopping || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queued >= this.settings.maxQueueSize) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      this.log.warn('spans dropped: the export queue was full', {
        spans: this.dropped,
        max_queue_size: this.settings.maxQueueSize,
      });
      this.dropped = 0;
    }
    let last = this.batches[this.batches.length - 1];
    if (!last || last.size >= this.settings.maxExportBatchSize) this.batches.push((last = new Batch()));
    if (!last.add(span)) {
      this.log.warn('span dropped: it could not be encoded', { span: span.name });
      return;
    }
    this.queued++;
    this.schedule();
  }

  /** Sends every batch queued, and waits for the one on its way. */
  async forceFlush(): Promise<void> {
    if (this.stopping) return this.stopping;
    await this.flushAll();
  }

  shutdown(): Promise<void> {
    this.stopping ??= this.flushAll().then(() => this.exporter.shutdown());
    return this.stopping;
  }

  private async flushAll(): Promise<void> {
    await this.sending;
    while (this.batches.length > 0) await this.sendOne();
  }

  /** Sends now when a batch is full, else once the delay has passed; never while a batch is on its way. */
  private schedule(): void {
    if (this.sending) return;
    if (this.batches[0]!.size >= this.settings.maxExportBatchSize) this.sendInTurn();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.sendInTurn(), this.settings.scheduledDelayMillis);
      this.timer.unref();
    }
  }

  private sendInTurn(): void {
    this.sending = this.sendOne()
      .catch((err: unknown) => this.log.warn('span export failed', { error: String(err) }))
      .finally(() => {
        this.sending = undefined;
        if (this.batches.length > 0) this.schedule();
      });
  }

  private sendOne(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batches.shift();
    if (!batch || batch.size === 0) return Promise.resolve();
    this.queued -= batch.size;
    const request = batch.request();
    const spans = batch.size;
    return new Promise((resolve, reject) => {
      // Not waited for past the timeout: the next batch may go.
      const timeout = setTimeout(
        () => reject(new Error(`${spans} spans not answered within ${this.settings.exportTimeoutMillis} ms`)),
        this.settings.exportTimeoutMillis,
      );
      // The export's own calls (HTTP) make no spans.
      context.with(suppressTracing(context.active()), () =>
        this.exporter.export(request, (result) => {
          clearTimeout(timeout);
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else reject(result.error ?? new Error(`${spans} spans not taken`));
        }),
      );
    });
  }
}
