// The API process: builds the clients, serves HTTP, and drains in-flight requests on SIGTERM/SIGINT.
import { loadServiceConfigOrExit } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { createStorage } from '../src/storage/minio.js';
import { watchEventLoopStalls } from '../src/runtime/event-loop-stalls.js';
import { createTemporalClient, describeTemporalConnection } from '../src/temporal/connection.js';
import { createServer } from 'node:http';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import { timedSql } from '../src/db/timed-sql.js';
import { apiMetrics, apiRegistry } from '../src/telemetry/api-metrics.js';
import { createLogger, exitAfterLogs } from '../src/telemetry/pino-logger.js';
import { DEFAULT_OPS_PORT, startOpsServer, type OpsRoute } from '../src/telemetry/ops-server.js';
import { watchReviewStates } from '../src/telemetry/review-state-metrics.js';
import { timedTemporalCalls } from '../src/telemetry/temporal-call-timing.js';
import { startTracing } from '../src/telemetry/tracing.js';
import { createApp } from './app.js';
import { answerClientErrors, MAX_HEADER_BYTES } from './http-layer.js';
import { ReviewWorkflows } from './review-workflow.js';

const config = loadServiceConfigOrExit();
const log = createLogger({ service: 'api', level: config.logLevel, format: config.telemetry.logFormat });
const tracing = await startTracing('api', config, log);
const metrics = config.telemetry.metrics;
const pool = createSql(config);
const sql = metrics
  ? timedSql(pool, (kind, outcome, seconds) => apiMetrics.postgresQueryDuration.observe({ kind, outcome }, seconds))
  : pool;
const storage = createStorage(config);
const temporal = createTemporalClient(config, [
  // Outermost: the call's span covers the time measured within it.
  ...(tracing ? [new OpenTelemetryWorkflowClientInterceptor()] : []),
  ...(metrics
    ? [
        timedTemporalCalls((operation, outcome, seconds) =>
          apiMetrics.temporalCallDuration.observe({ operation, outcome }, seconds),
        ),
      ]
    : []),
]);
watchEventLoopStalls(log);
if (metrics) watchReviewStates(pool, apiRegistry);
const opsRoutes: Record<string, OpsRoute> = metrics
  ? {
      '/metrics': async () => ({
        status: 200,
        contentType: apiRegistry.contentType,
        body: await apiRegistry.metrics(),
      }),
    }
  : {};
const opsPort = config.telemetry.ops.port ?? DEFAULT_OPS_PORT.api;
const ops =
  opsPort === 0
    ? undefined
    : startOpsServer(config.telemetry.ops.host, opsPort, opsRoutes).then(
        (server) => {
          log.info(`operations server listening on http://${config.telemetry.ops.host}:${opsPort}`);
          return server;
        },
        (err: unknown) => {
          log.error(
            `operations server cannot listen on ${config.telemetry.ops.host}:${opsPort}: ${(err as Error).message}`,
          );
          return exitAfterLogs(1);
        },
      );

// No limit on the time a whole request takes (Node's default is 300 s): a large upload on a slow link
// needs longer, and a body that stalls is refused by the API itself (http-layer.ts's bodyStalls).
const workflows = new ReviewWorkflows(temporal, config.temporal.taskQueue);

const server = createServer(
  { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 0 },
  createApp({ config, sql, storage, temporal, workflows, log, metrics, tracing: tracing?.tracer }),
);
answerClientErrors(server, log);
server.listen(config.http.port, config.http.host, () => {
  log.info(`listening on http://${config.http.host}:${config.http.port} (public ${config.http.publicBaseUrl})`);
});
// The client connects lazily (the API starts before Temporal may answer); a connection Temporal refuses
// (a missing or wrong client certificate, a bad API key) is said at once, not only as /readyz 503s.
temporal.connection.ensureConnected().then(
  () => log.info(`connected to Temporal at ${describeTemporalConnection(config)}`),
  (err: unknown) =>
    log.warn(
      `Temporal at ${describeTemporalConnection(config)} is not reachable yet or refused the ` +
        `connection: ${(err as Error).message}; /readyz answers 503 until it can be used`,
    ),
);

// Idle keep-alive connections outlive those of clients and proxies (60 s is the usual load-balancer idle
// timeout; Node's own default is 5 s): a server that closes first races a client reusing the socket for
// its next POST, which then fails mid-body (EPIPE) and cannot safely be retried by the client's library.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: draining`);
  server.close();
  server.closeIdleConnections();
  // Requests still running after 10 s are cut; Temporal keeps whatever they had started.
  const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
  await new Promise<void>((resolve) => server.once('close', () => resolve()));
  clearTimeout(force);
  await Promise.allSettled([
    pool.end({ timeout: 5 }),
    temporal.connection.close(),
    tracing?.shutdown(),
    ops?.then((server) => new Promise((resolve) => server.close(resolve))),
  ]);
  // Once the last records (pino writes them asynchronously) are on stderr.
  await exitAfterLogs(0);
}
for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => void stop(s));
