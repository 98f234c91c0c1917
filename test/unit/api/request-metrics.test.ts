// Requests are measured by their route's template, never by the ids in their paths.
import test from 'ava';
import type { Request } from 'express';
import { routeTemplate } from '../../../api/request-metrics.js';

const request = (originalUrl: string, routePath?: string) =>
  ({ originalUrl, ...(routePath ? { route: { path: routePath } } : {}) }) as unknown as Request;

test('a matched route is named by its template, under /v1 where it was mounted', (t) => {
  t.is(
    routeTemplate(request('/v1/reviews/3f0c6a1e-0000-4000-8000-000000000000', '/reviews/:review_id')),
    '/v1/reviews/:review_id',
  );
  t.is(routeTemplate(request('/v1/openapi.json', '/v1/openapi.json')), '/v1/openapi.json');
  t.is(routeTemplate(request('/healthz', '/healthz')), '/healthz');
});

test('a request refused before routing is still named by the route it was for; anything else is one label', (t) => {
  t.is(routeTemplate(request('/v1/reviews?limit=5')), '/v1/reviews');
  t.is(routeTemplate(request('/v1/reviews/abc/documents')), '/v1/reviews/:review_id/documents');
  t.is(routeTemplate(request('/v1/webhook-endpoints/abc/deliveries')), '/v1/webhook-endpoints/:id/deliveries');
  t.is(routeTemplate(request('/wp-admin/setup.php')), 'unmatched');
});
