// The API process's metrics, served at /metrics on its operations port (src/telemetry/ops-server.ts).
// Labels are bounded sets (route templates, status classes, error codes, operations), never ids, keys or
// organizations: a label per organization or review would grow without bound and tell a scrape who calls.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const apiRegistry = new Registry();
collectDefaultMetrics({ register: apiRegistry });

/** Seconds, from a millisecond to a minute: reads take milliseconds, uploads seconds. */
const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds, from half a millisecond to ten: calls to Postgres and Temporal. */
const CALL_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const apiMetrics = {
  requestDuration: new Histogram({
    name: 'loan_review_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status class (2xx, 4xx, 5xx), until the answer is sent.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: REQUEST_SECONDS,
    registers: [apiRegistry],
  }),
  requestsInFlight: new Gauge({
    name: 'loan_review_http_requests_in_flight',
    help: 'HTTP requests received and not yet answered.',
    registers: [apiRegistry],
  }),
  rateLimitRefusals: new Counter({
    name: 'loan_review_rate_limit_refusals_total',
    help: 'Requests refused 429: by the organization request limit, or by the failed-key limit of a client address.',
    labelNames: ['limit'] as const,
    registers: [apiRegistry],
  }),
  authFailures: new Counter({
    name: 'loan_review_auth_failures_total',
    help: 'Requests refused by authentication, by error code.',
    labelNames: ['code'] as const,
    registers: [apiRegistry],
  }),
  uploadBytes: new Counter({
    name: 'loan_review_upload_bytes_total',
    help: 'Bytes of documents received in multipart uploads and stored.',
    registers: [apiRegistry],
  }),
  creates: new Counter({
    name: 'loan_review_creates_total',
    help: 'Review creates answered, by outcome: accepted, or the error code of the refusal.',
    labelNames: ['outcome'] as const,
    registers: [apiRegistry],
  }),
  documentAdditions: new Counter({
    name: 'loan_review_document_additions_total',
    help: 'Document additions to a review answered, by outcome: accepted, or the error code of the refusal.',
    labelNames: ['outcome'] as const,
    registers: [apiRegistry],
  }),
  temporalCallDuration: new Histogram({
    name: 'loan_review_temporal_call_duration_seconds',
    help: 'Calls to Temporal (start, update, signal, query, describe) by operation and outcome (ok, error).',
    labelNames: ['operation', 'outcome'] as const,
    buckets: CALL_SECONDS,
    registers: [apiRegistry],
  }),
  postgresQueryDuration: new Histogram({
    name: 'loan_review_postgres_query_duration_seconds',
    help: 'Postgres queries and transactions the API makes, by kind (query, transaction) and outcome.',
    labelNames: ['kind', 'outcome'] as const,
    buckets: CALL_SECONDS,
    registers: [apiRegistry],
  }),
};
