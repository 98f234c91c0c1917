// Each request's span, the root of the trace of what it causes (src/telemetry/tracing.ts): named by its
// method and route template, with the status it was answered; a caller's W3C `traceparent` makes it a
// child of the caller's own span. The span is made after the request, with others, from what is noted as
// it ends (src/telemetry/request-spans.ts says why). The calls to Temporal a request makes (a create's or
// an addition's update-with-start) are made in its trace: the request's context
// is handed to them explicitly (`requestTrace`), not followed through every await
// (src/telemetry/sync-context.ts says why).
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import type { RequestSpan, RequestSpans } from '../src/telemetry/request-spans.js';
import { requestIdOf } from './request-id.js';
import { routeTemplate } from './request-metrics.js';

// The API's namespaces read once: the bundle reaches each of them through two getters on every use.
const contextApi = context;
const propagationApi = propagation;

/** The trace context of the request `res` answers, where requests are traced. */
export function requestTrace(res: Response): Context | undefined {
  return (res.locals.span as RequestSpan | undefined)?.trace();
}

/** `call` made within `trace` (its spans the trace's children), or as it is without one. */
export function inTrace<T>(trace: Context | undefined, call: () => T): T {
  return trace ? contextApi.with(trace, call) : call();
}

/**
 * Notes each request's start (`start`) and its end (`end`, with its route template) for its span.
 * Made once the tracer provider and propagators are installed: a request carrying none of the headers they
 * read (`traceparent`, `baggage`, or those OTEL_PROPAGATORS names) has no parent to extract.
 */
export function requestSpans(spans: RequestSpans): {
  start(req: Request, res: Response): RequestSpan;
  end(span: RequestSpan, res: Response, route: string): void;
} {
  const headers = propagationApi.fields().map((h) => h.toLowerCase());
  return {
    start(req, res) {
      const parent = headers.some((h) => req.headers[h] !== undefined)
        ? propagationApi.extract(contextApi.active(), req.headers)
        : ROOT_CONTEXT;
      const span = spans.begin(req.method, parent);
      res.locals.span = span;
      return span;
    },
    end(span, res, route) {
      spans.end(span, route, res.statusCode, requestIdOf(res));
    },
  };
}

/** Traces requests where metrics are off (with metrics, measureRequests traces them in its one listener). */
export function traceRequests(spans: RequestSpans): RequestHandler {
  const noted = requestSpans(spans);
  return (req, res, next) => {
    const span = noted.start(req, res);
    res.once('close', () => noted.end(span, res, routeTemplate(req)));
    next();
  };
}
