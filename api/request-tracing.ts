// Each request's span, the root of the trace of what it causes (src/telemetry/tracing.ts): named by its
// method and route template, with the status it was answered; a caller's W3C `traceparent` makes it a
// child of the caller's own span. The calls to Temporal a request makes (an update or start, and the run
// a small create starts after its answer) are made in its trace: the span is handed to them explicitly
// (`requestTrace`), not followed through every await (src/telemetry/sync-context.ts says why).
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import { requestIdOf } from './request-id.js';
import { routeTemplate } from './request-metrics.js';

// The API's namespaces read once: the bundle reaches each of them through two getters on every use, and a
// read request uses them a handful of times.
const contextApi = context;
const propagationApi = propagation;
const traceApi = trace;
const tracer = traceApi.getTracer('loan-review-api');

/** The trace context of the request `res` answers, where requests are traced. */
export function requestTrace(res: Response): Context | undefined {
  return res.locals.trace as Context | undefined;
}

/** `call` made within `trace` (its spans the trace's children), or as it is without one. */
export function inTrace<T>(trace: Context | undefined, call: () => T): T {
  return trace ? contextApi.with(trace, call) : call();
}

/**
 * Starts each request's span (`start`, made its trace) and ends it (`end`, named by its route template).
 * Made once the tracer provider and propagators are installed: a request carrying none of the headers they
 * read (`traceparent`, `baggage`, or those OTEL_PROPAGATORS names) has no parent to extract.
 */
export function requestSpans(): {
  start(req: Request, res: Response): Span;
  end(span: Span, req: Request, res: Response, route: string): void;
} {
  const headers = propagationApi.fields().map((h) => h.toLowerCase());
  return {
    start(req, res) {
      const parent = headers.some((h) => req.headers[h] !== undefined)
        ? propagationApi.extract(contextApi.active(), req.headers)
        : ROOT_CONTEXT;
      // The method is known at the start, where a sampler reads the span's attributes.
      const span = tracer.startSpan(
        req.method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
        parent,
      );
      res.locals.trace = traceApi.setSpan(parent, span);
      return span;
    },
    end(span, req, res, route) {
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
export function traceRequests(): RequestHandler {
  const spans = requestSpans();
  return (req, res, next) => {
    const span = spans.start(req, res);
    res.once('close', () => spans.end(span, req, res, routeTemplate(req)));
    next();
  };
}
