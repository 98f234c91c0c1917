// The API's request metrics (api/request-metrics.ts into src/telemetry/api-metrics.ts), as a scrape of
// /metrics reads them: each request's duration by method, route template and status class, the requests
// in flight, and creates by outcome.
import test from 'ava';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { measureRequests } from '../../../api/request-metrics.js';
import { apiRegistry } from '../../../src/telemetry/api-metrics.js';

async function api(t: { teardown(fn: () => unknown): void }): Promise<{ url: string; inFlight: () => string }> {
  let inFlight = '';
  const app = express();
  app.use(measureRequests({ tracing: undefined }));
  app.get('/v1/reviews/:review_id', async (_req, res) => {
    inFlight = await apiRegistry.getSingleMetricAsString('loan_review_http_requests_in_flight');
    res.json({});
  });
  app.post('/v1/reviews', (_req, res) => {
    res.locals.errorCode = 'invalid_request';
    res.status(400).json({});
  });
  const server = app.listen(0, '127.0.0.1');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, inFlight: () => inFlight };
}

/** Waits for the server's 'close' listeners, which measure the request after its answer is sent. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

test('each request is measured by method, route template and status class; creates by outcome', async (t) => {
  const { url, inFlight } = await api(t);
  await (await fetch(`${url}/v1/reviews/r-1`)).arrayBuffer();
  await (await fetch(`${url}/v1/reviews/r-2`)).arrayBuffer();
  await (await fetch(`${url}/v1/reviews`, { method: 'POST' })).arrayBuffer();
  await settled();

  const text = await apiRegistry.metrics();
  const read = 'method="GET",route="/v1/reviews/:review_id",status_class="2xx"';
  t.regex(text, /^# TYPE loan_review_http_request_duration_seconds histogram$/m);
  t.true(text.includes(`loan_review_http_request_duration_seconds_bucket{le="+Inf",${read}} 2`));
  t.true(text.includes(`loan_review_http_request_duration_seconds_count{${read}} 2`));
  t.true(
    text.includes(
      'loan_review_http_request_duration_seconds_count{method="POST",route="/v1/reviews",status_class="4xx"} 1',
    ),
  );
  t.true(text.includes('loan_review_creates_total{outcome="invalid_request"} 1'));
  t.regex(inFlight(), /^loan_review_http_requests_in_flight 1$/m, 'a request counts in flight until answered');
  t.regex(text, /^loan_review_http_requests_in_flight 0$/m);
});
