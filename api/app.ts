// The Express application: health endpoints at the root, the versioned API under /v1, and one error
// envelope for everything that goes wrong.
import type { Tracer } from '@opentelemetry/api';
import express from 'express';
import type { Client } from '@temporalio/client';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import type { Storage } from '../src/storage/minio.js';
import { authenticate, cachedKeyLookup } from './auth.js';
import { receivedOffTheClock, requestDeadline } from './deadline.js';
import { errorHandler, notFound } from './errors.js';
import { bodyStalls, urlLength } from './http-layer.js';
import { organizationRateLimit } from './rate-limit.js';
import { FailureWindows } from '../src/rate-limit/failure-windows.js';
import { requestId } from './request-id.js';
import { measureRequests } from './request-metrics.js';
import { traceRequests } from './request-tracing.js';
import type { Logger } from '../src/telemetry/logger.js';
import { docsRoutes, openApiRoute } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { reviewRoutes } from './routes/reviews.js';
import type { ReviewWorkflows } from './review-workflow.js';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.js';
import { eventRoutes } from './routes/events.js';

export interface AppDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
  temporal: Client;
  workflows: ReviewWorkflows;
  log: Logger;
  /** Requests measured for /metrics (METRICS=on). */
  metrics: boolean;
  /** Each request the root of a trace, where a tracer provider is installed (src/telemetry/tracing.ts). */
  tracing: Tracer | undefined;
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Who the client is, behind the proxies an operator trusts (TRUST_PROXY): failed keys count per client.
  app.set('trust proxy', deps.config.http.trustProxy);
  // First: every request is the root of its trace, every answer (health and docs included) carries the
  // request's id, and every request is measured, whatever refuses it.
  if (deps.metrics) app.use(measureRequests({ tracing: deps.tracing }));
  else if (deps.tracing) app.use(traceRequests(deps.tracing));
  app.use(requestId(deps.log));
  // Before anything reads the body or waits on a server: refusals of the request's shape and pace.
  app.use(urlLength, bodyStalls(deps.log));
  // The API's own requests are routed first: every router and route an Express request passes costs it a
  // match (about a tenth of a read's CPU went on routing), and health and docs paths never begin /v1.
  // The OpenAPI document is public, so it comes before /v1's authentication.
  app.get('/v1/openapi.json', openApiRoute(deps.config.http.publicBaseUrl));

  const v1 = express.Router();
  // The deadline before anything that waits on a server (api/deadline.ts).
  v1.use(requestDeadline(deps.log));
  // Authentication first: an unauthenticated caller learns nothing, not even that its body is malformed.
  v1.use(
    authenticate(
      cachedKeyLookup(deps.sql, deps.config.limits.apiKeyCacheMs, deps.log),
      new FailureWindows(deps.config.limits.authFailuresPerMinute),
    ),
  );
  v1.use(organizationRateLimit(deps.sql, deps.config.limits.rateLimitPerMinute));
  v1.use(receivedOffTheClock(express.json({ limit: '1mb' })));
  v1.use(reviewRoutes(deps));
  v1.use(webhookEndpointRoutes(deps));
  v1.use(eventRoutes(deps));
  app.use('/v1', v1);
  app.use(healthRoutes(deps));
  app.use(docsRoutes());

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
