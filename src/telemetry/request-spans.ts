// The API's request spans: what a request's span holds is noted as the request ends, and made into spans a
// batch at a time. An SDK span started and ended inside each request cost a read 37–51 µs of the API's CPU
// on the benchmark's machine (bench/telemetry-cost.ts), though span and encoding together take 4 µs in a
// loop: between two requests its code and data go cold, and every request paid for warming them again.
// Noted as a few fields and made into spans in one loop, a traced read costs 15–27 µs more than one
// neither traced nor measured, metrics' 10 µs included. The spans are those the SDK would make (its
// sampler decides, its attribute limits apply) and go to the same span processor as every other span.
//
// A request's own span context is drawn when something first asks for its trace (a create's call to
// Temporal, which parents its spans on it), or at the latest when its span is made: the span a request's
// calls are parented on is the span it is given.
import { SamplingDecision, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import type { Attributes, AttributeValue, Context, HrTime, Link, SpanContext } from '@opentelemetry/api';
import { addHrTimes, hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import type { InstrumentationLibrary } from '@opentelemetry/core';
import type { IResource } from '@opentelemetry/resources';
import { RandomIdGenerator } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, Sampler, SpanLimits, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

export interface RequestSpanSettings {
  sampler: Sampler;
  processor: Pick<SpanProcessor, 'onEnd'>;
  resource: IResource;
  scope: InstrumentationLibrary;
  /** The SDK's attribute limits (OTEL_SPAN_ATTRIBUTE_* / OTEL_ATTRIBUTE_*), as its own spans take them. */
  limits: SpanLimits;
  /** Ended requests noted before they are made into spans at once. */
  batch?: number;
  /** How long an ended request waits at most to be made into a span. */
  delayMillis?: number;
}

/** What a request's span is waiting to be made of; its context once decided. */
export class RequestSpan {
  ended = 0;
  route = '';
  status = 0;
  requestId = '';
  /** Undefined until decided (RequestSpans.decide). */
  context: SpanContext | undefined;
  /** Whether the sampler records the span at all (an unsampled span's context still carries its trace). */
  recorded = false;
  parentSpanId: string | undefined;
  samplerAttributes: Attributes | undefined;

  constructor(
    private readonly spans: RequestSpans,
    /** performance.now() when the request arrived. */
    readonly started: number,
    /** The caller's context (its traceparent), or the root. */
    readonly parent: Context,
    readonly method: string,
  ) {}

  /** The request's trace, for the calls it makes: its span's context, drawn now if not yet. */
  trace(): Context {
    return trace.setSpan(this.parent, trace.wrapSpanContext(this.spans.decide(this)));
  }
}

export class RequestSpans {
  private readonly ids = new RandomIdGenerator();
  private readonly batch: number;
  private readonly delayMillis: number;
  private ended: RequestSpan[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly settings: RequestSpanSettings) {
    this.batch = settings.batch ?? 64;
    this.delayMillis = settings.delayMillis ?? 50;
  }

  /** A request arriving with `method`, under its caller's `parent` context (the root without one). */
  begin(method: string, parent: Context): RequestSpan {
    return new RequestSpan(this, performance.now(), parent, method);
  }

  /** The request answered: its span is made with the next batch. */
  end(span: RequestSpan, route: string, status: number, requestId: string): void {
    span.ended = performance.now();
    span.route = route;
    span.status = status;
    span.requestId = requestId;
    this.ended.push(span);
    if (this.ended.length >= this.batch) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.delayMillis);
      this.timer.unref();
    }
  }

  /** Makes every ended request's span and hands it to the processor. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ended = this.ended;
    this.ended = [];
    // performance.now() counts from the process's start on a clock that drifts from the wall clock; the
    // SDK takes the drift at each span's start, here once a batch (its requests ended moments ago).
    const origin = millisToHrTime(Date.now() - performance.now());
    for (const span of ended) {
      const context = this.decide(span);
      if (span.recorded) this.settings.processor.onEnd(this.made(span, context, origin));
    }
  }

  /** The span's context, drawn and sampled once (unsampled when the sampler keeps nothing). */
  decide(span: RequestSpan): SpanContext {
    if (span.context !== undefined) return span.context;
    const parent = trace.getSpanContext(span.parent);
    const child = parent !== undefined && trace.isSpanContextValid(parent);
    const traceId = child ? parent.traceId : this.ids.generateTraceId();
    // What the SDK's tracer hands its sampler at a span's start: the name and attributes known then.
    const sampled = this.settings.sampler.shouldSample(
      span.parent,
      traceId,
      span.method,
      SpanKind.SERVER,
      { 'http.request.method': span.method },
      [],
    );
    const traceState = sampled.traceState ?? (child ? parent.traceState : undefined);
    span.context = {
      traceId,
      spanId: this.ids.generateSpanId(),
      traceFlags: sampled.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      ...(traceState ? { traceState } : {}),
    };
    span.recorded = sampled.decision !== SamplingDecision.NOT_RECORD;
    span.parentSpanId = child ? parent.spanId : undefined;
    span.samplerAttributes = sampled.attributes;
    return span.context;
  }

  private made(span: RequestSpan, context: SpanContext, origin: HrTime): ReadableSpan {
    const attributes = limited(
      {
        'http.request.method': span.method,
        ...span.samplerAttributes,
        'http.route': span.route,
        'http.response.status_code': span.status,
        'request.id': span.requestId,
      },
      this.settings.limits,
    );
    const startTime = addHrTimes(origin, millisToHrTime(span.started));
    const endTime = addHrTimes(origin, millisToHrTime(span.ended));
    return {
      name: `${span.method} ${span.route}`,
      kind: SpanKind.SERVER,
      spanContext: () => context,
      ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      status: { code: span.status >= 500 ? SpanStatusCode.ERROR : SpanStatusCode.UNSET },
      attributes: attributes.kept,
      droppedAttributesCount: attributes.dropped,
      links: [] as Link[],
      events: [] as TimedEvent[],
      droppedEventsCount: 0,
      droppedLinksCount: 0,
      ended: true,
      resource: this.settings.resource,
      instrumentationLibrary: this.settings.scope,
    };
  }
}

/** Attributes as the SDK's span keeps them: at most the count limit, strings cut to the length limit. */
export function limited(attributes: Attributes, limits: SpanLimits): { kept: Attributes; dropped: number } {
  const count = limits.attributeCountLimit ?? Number.POSITIVE_INFINITY;
  const length = limits.attributeValueLengthLimit || Number.POSITIVE_INFINITY;
  const kept: Attributes = {};
  let n = 0;
  let dropped = 0;
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    if (n >= count) {
      dropped++;
      continue;
    }
    kept[key] = cut(value, length);
    n++;
  }
  return { kept, dropped };
}

function cut(value: AttributeValue, length: number): AttributeValue {
  if (typeof value === 'string') return value.length > length ? value.slice(0, length) : value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'string' && v.length > length ? v.slice(0, length) : v)) as AttributeValue;
  return value;
}
