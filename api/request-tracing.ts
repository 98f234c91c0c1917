// Each request's span, the root of the trace of what it causes (src/telemetry/tracing.ts): a server span
// the SDK's tracer starts as the request arrives (its sampler decides, its limits apply), named by its
// method and route template when the request is answered, with the status and the request id; a caller's
// W3C `traceparent` makes it a child of the caller's own span. The rest of the request runs in the span's
// context, which follows its awaits; the calls to Temporal a request makes (a create's or an addition's
// update-with-start) are also handed it explicitly (`requestTrace`, `inTrace`).
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import { requestIdOf } from './request-id.js';
import { routeTemplate } from './request-metrics.js';

/** A request's span, and the context its work runs in (the caller's, with the span). */
export interface RequestSpan {
  span: Span;
  context: Context;
}

/** The trace context of the request `res` answers, where requests are traced. */
export function requestTrace(res: Response): Context | undefined {
  return (res.locals.span as RequestSpan | undefined)?.context;
}

/** `call` made within `trace` (its spans the trace's children), or as it is without one. */
export function inTrace<T>(trace: Context | undefined, call: () => T): T {
  return trace ? context.with(trace, call) : call();
}

/** Starts each request's span (`start`) and ends it (`end`, with its route template). */
export function requestSpans(tracer: Tracer): {
  start(req: Request, res: Response): RequestSpan;
  end(span: RequestSpan, req: Request, res: Response, route: string): void;
} {
  return {
    start(req, res) {
      const parent = propagation.extract(context.active(), req.headers);
      const span = tracer.startSpan(
        req.method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
        parent,
      );
      const started = { span, context: trace.setSpan(parent, span) };
      res.locals.span = started;
      return started;
    },
    end({ span }, req, res, route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({
        'http.route': route,
        'http.response.status_code': res.statusCode,
        'request.id': requestIdOf(res),
      });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** Traces requests where metrics are off (with metrics, measureRequests traces them in its one listener). */
export function traceRequests(tracer: Tracer): RequestHandler {
  const spans = requestSpans(tracer);
  return (req, res, next) => {
    const span = spans.start(req, res);
    res.once('close', () => spans.end(span, req, res, routeTemplate(req)));
    context.with(span.context, next);
  };
}
