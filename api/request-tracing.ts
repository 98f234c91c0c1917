// Each request's span, the root of the trace of what it causes (src/telemetry/tracing.ts): named by its
// method and route template, with the status it was answered; a caller's W3C `traceparent` makes it a
// child of the caller's own span. The calls to Temporal a request makes (an update or start, and the run
// a small create starts after its answer) are made in its trace: the span is handed to them explicitly
// (`requestTrace`), not followed through every await (src/telemetry/sync-context.ts says why).
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';
import { requestIdOf } from './request-id.js';
import { routeTemplate } from './request-metrics.js';

const tracer = trace.getTracer('loan-review-api');

/** The trace context of the request `res` answers, where requests are traced. */
export function requestTrace(res: Response): Context | undefined {
  return res.locals.trace as Context | undefined;
}

/** `call` made within `trace` (its spans the trace's children), or as it is without one. */
export function inTrace<T>(trace: Context | undefined, call: () => T): T {
  return trace ? context.with(trace, call) : call();
}

export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    res.locals.trace = trace.setSpan(parent, span);
    res.once('close', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({
        'http.route': route,
        'http.response.status_code': res.statusCode,
        'request.id': requestIdOf(res),
      });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    next();
  };
}
