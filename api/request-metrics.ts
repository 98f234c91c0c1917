// Each request measured for the API's metrics (src/telemetry/api-metrics.ts): its duration by route
// template and status class, the requests in flight, and what its answer says about creates, document
// additions, rate limits and authentication. Installed first, so a request refused anywhere is counted.
import { context, type Tracer } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import { apiMetrics } from '../src/telemetry/api-metrics.js';
import { requestSpans } from './request-tracing.js';

const AUTH_CODES = new Set(['missing_api_key', 'invalid_api_key', 'org_unbound', 'auth_unavailable']);

/**
 * The API's route templates, for requests refused before a route matched them (authentication, rate
 * limits): a refused create is still a create. Anything else unmatched is one label, whatever its path.
 */
const TEMPLATES: readonly [RegExp, string][] = [
  [/^\/v1\/reviews\/?$/, '/v1/reviews'],
  [/^\/v1\/reviews\/[^/]+\/?$/, '/v1/reviews/:review_id'],
  [/^\/v1\/reviews\/[^/]+\/report\/?$/, '/v1/reviews/:review_id/report'],
  [/^\/v1\/reviews\/[^/]+\/documents\/?$/, '/v1/reviews/:review_id/documents'],
  [/^\/v1\/webhook-endpoints\/?$/, '/v1/webhook-endpoints'],
  [/^\/v1\/webhook-endpoints\/[^/]+\/?$/, '/v1/webhook-endpoints/:id'],
  [/^\/v1\/webhook-endpoints\/[^/]+\/deliveries\/?$/, '/v1/webhook-endpoints/:id/deliveries'],
];

/** The template of the route a request took (`/v1/reviews/:review_id`), never its ids. */
export function routeTemplate(req: Request): string {
  const path = req.originalUrl.split('?')[0] ?? '/';
  const matched = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof matched === 'string')
    return path.startsWith('/v1/') && !matched.startsWith('/v1') ? `/v1${matched}` : matched;
  return TEMPLATES.find(([pattern]) => pattern.test(path))?.[1] ?? 'unmatched';
}

/**
 * Measures each request; with `tracing`, traces it too (api/request-tracing.ts), in the same 'close' listener
 * with the same route template: a request's close listeners and route matching are a few percent of a read.
 */
export function measureRequests({ tracing }: { tracing: Tracer | undefined }): RequestHandler {
  const spans = tracing ? requestSpans(tracing) : undefined;
  return (req, res, next) => {
    const span = spans?.start(req, res);
    const started = process.hrtime.bigint();
    apiMetrics.requestsInFlight.inc();
    res.once('close', () => {
      apiMetrics.requestsInFlight.dec();
      const route = routeTemplate(req);
      if (span) spans!.end(span, req, res, route);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      apiMetrics.requestDuration.observe(
        { method: req.method, route, status_class: `${Math.floor(res.statusCode / 100)}xx` },
        seconds,
      );
      countOutcome(req.method, route, res);
    });
    if (span) context.with(span.context, next);
    else next();
  };
}

function countOutcome(method: string, route: string, res: Response): void {
  const code = res.locals.errorCode as string | undefined;
  if (code === 'rate_limited') apiMetrics.rateLimitRefusals.inc({ limit: rateLimitOf(res) });
  if (code !== undefined && AUTH_CODES.has(code)) apiMetrics.authFailures.inc({ code });
  if (method !== 'POST') return;
  const outcome = code ?? (res.statusCode < 300 ? 'accepted' : `http_${res.statusCode}`);
  if (route === '/v1/reviews') apiMetrics.creates.inc({ outcome });
  else if (route === '/v1/reviews/:review_id/documents') apiMetrics.documentAdditions.inc({ outcome });
}

/** Which limit refused a request 429: a client address's failed keys (api/auth.ts), else its organization's. */
function rateLimitOf(res: Response): string {
  return res.locals.rateLimit === 'failed_keys' ? 'failed_keys' : 'organization';
}
