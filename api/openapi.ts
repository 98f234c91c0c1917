// The OpenAPI 3.1 document of /v1, generated from the same zod schemas that validate requests and shape
// responses, so the document cannot drift from the behaviour.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from '../src/openapi/zod.js';
import { ReportSchema } from '../src/reviews/report.js';
import { AddDocumentsJsonSchema, AddDocumentsResultSchema } from '../src/reviews/add-documents.js';
import {
  CreateReviewJsonSchema,
  CreateReviewMultipartFieldsSchema,
  DocumentSourceSchema,
  MetadataSchema,
  ReviewListQuerySchema,
  ReviewSchema,
} from '../src/reviews/review.js';
import {
  RegisteredWebhookEndpointSchema,
  RegisterWebhookEndpointSchema,
  ResendAcceptedSchema,
  ResendEventSchema,
  RotatedWebhookEndpointSchema,
  RotateWebhookSecretSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '../src/webhooks/endpoint.js';
import {
  DELIVERY_LIST_DEFAULT,
  DELIVERY_LIST_MAX,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
} from '../src/webhooks/delivery-log.js';
import { EventListQuerySchema, EventListSchema, WebhookPayloadSchema } from '../src/webhooks/payload.js';
import { ErrorEnvelopeSchema } from './errors.js';
import { SCHEMA_EXAMPLES, TAGS, type Tag } from './openapi-examples.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { ValidationDetailSchema } from './validation.js';

export const API_VERSION = '2026-05-30';

export function buildOpenApiDocument(publicBaseUrl: string) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'The organization API key: `Authorization: Bearer rk_live_…` (or `rk_test_…` for sandbox).',
  });
  const apiKeyHeader = registry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'The same API key; if both headers are sent they must be equal.',
  });

  const Review = registry.register('Review', ReviewSchema);
  registry.register('DocumentSource', DocumentSourceSchema);
  const CreateReview = registry.register('CreateReviewRequest', CreateReviewJsonSchema);
  const ReviewList = registry.register(
    'ReviewList',
    z.strictObject({ data: z.array(Review), next_cursor: z.string().nullable() }),
  );
  const Report = registry.register('Report', ReportSchema);
  const AddDocuments = registry.register('AddDocumentsRequest', AddDocumentsJsonSchema);
  const AddDocumentsResult = registry.register('AddDocumentsResult', AddDocumentsResultSchema);
  registry.register('WebhookEndpoint', WebhookEndpointSchema);
  const RegisteredEndpoint = registry.register('RegisteredWebhookEndpoint', RegisteredWebhookEndpointSchema);
  const EndpointList = registry.register('WebhookEndpointList', WebhookEndpointListSchema);
  registry.register('WebhookDelivery', WebhookDeliverySchema);
  const DeliveryList = registry.register('WebhookDeliveryList', WebhookDeliveryListSchema);
  const RegisterEndpoint = registry.register('RegisterWebhookEndpointRequest', RegisterWebhookEndpointSchema);
  const ErrorEnvelope = registry.register('Error', ErrorEnvelopeSchema);
  const ValidationDetail = registry.register('ValidationDetail', ValidationDetailSchema);
  const Payload = registry.register('WebhookPayload', WebhookPayloadSchema);

  const json = <T extends z.ZodType>(schema: T, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const error = (description: string) => json(ErrorEnvelope, description);
  const rateLimitHeaders = {
    'X-RateLimit-Limit': { description: 'Ceiling for the window.', schema: { type: 'integer' as const } },
    'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' as const } },
    'X-RateLimit-Reset': {
      description: 'Unix time in seconds when the window resets.',
      schema: { type: 'integer' as const },
    },
  };
  const common = {
    '401': error('`missing_api_key` or `invalid_api_key`.'),
    '403': error('`org_unbound`: the key is bound to no organization.'),
    '429': {
      ...error('`rate_limited`; honour `Retry-After`.'),
      headers: {
        ...rateLimitHeaders,
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const } },
      },
    },
    '500': error('`internal_error`; retry later.'),
    '503': {
      ...error(
        '`auth_unavailable` (the key could not be checked) or `service_unavailable` (a server behind ' +
          'the API did not answer within 9 s; a create may still have started its review, so retry it with the ' +
          'same `Idempotency-Key`); honour `Retry-After`.',
      ),
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const } } },
    },
  };
  const reviewIdParam = z.object({ review_id: z.uuid().describe('Identifier of the review.') });
  const security = [{ [bearer.name]: [] }, { [apiKeyHeader.name]: [] }];

  registry.registerPath({
    method: 'post',
    path: '/reviews',
    summary: 'Create a review',
    operationId: 'createReview',
    tags: tag('Reviews'),
    description:
      'Creates a review from a loan package and returns at once; the review is processed ' +
      'asynchronously. Upload the files as multipart, or give signed HTTPS URLs (JSON).',
    security,
    request: {
      headers: z.object({ 'Idempotency-Key': z.string().min(1).max(255).optional() }),
      body: {
        required: true,
        content: {
          'application/json': { schema: CreateReview },
          'multipart/form-data': {
            // The text fields the route validates, and the file parts multer reads.
            schema: CreateReviewMultipartFieldsSchema.extend({
              documents: z
                .array(z.string().meta({ format: 'binary' }))
                .min(1)
                .describe('One or more files: zip, tar, tar.gz/tgz packages, or PDF/image documents.'),
              metadata: MetadataSchema.optional().describe('A JSON object of string values, sent as a JSON part.'),
            }),
            // The part holds the object as JSON text (a client may omit the part's own Content-Type).
            encoding: { metadata: { contentType: 'application/json' } },
          },
        },
      },
    },
    responses: {
      '201': { ...json(Review, 'Created.'), headers: rateLimitHeaders },
      '200': {
        ...json(Review, 'A retry with the same `Idempotency-Key`: the original Review; nothing new is created.'),
        headers: rateLimitHeaders,
      },
      '400': error('`document_required`, `document_unsupported`, malformed JSON or metadata (`invalid_request`).'),
      '409': error('`duplicate_reference_id` or `all_documents_duplicate`.'),
      '413': error('`document_too_large`.'),
      '422': error(
        '`invalid_request` (the message names the fields), `too_many_documents`, ' +
          '`documents_too_large`, `working_doc_not_review_input`.',
      ),
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/reviews',
    summary: 'List reviews',
    operationId: 'listReviews',
    tags: tag('Reviews'),
    description:
      'Newest first, by created_at then id. Pass `next_cursor` back verbatim as `cursor`; null means ' +
      'the last page. The filters combine, with each other and with the cursor (pass the same filters ' +
      'with it). `reference_id` finds the review filed under it (a create answered 503 may have made it).',
    security,
    request: {
      query: ReviewListQuerySchema,
    },
    responses: {
      '200': { ...json(ReviewList, 'A page of reviews.'), headers: rateLimitHeaders },
      '422': error(
        '`invalid_request`: malformed `cursor`, `limit`, `reference_id`, `status`, `created_after` or ' +
          '`created_before`.',
      ),
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/reviews/{review_id}',
    summary: 'Get a review',
    operationId: 'getReview',
    tags: tag('Reviews'),
    security,
    request: { params: reviewIdParam },
    responses: {
      '200': { ...json(Review, 'The review.'), headers: rateLimitHeaders },
      '404': error('`review_not_found`.'),
      '422': json(ValidationDetail, 'Malformed `review_id`.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'delete',
    path: '/reviews/{review_id}',
    summary: 'Delete a review',
    operationId: 'deleteReview',
    tags: tag('Reviews'),
    description:
      "Deletes the review of your organization and of the key's mode: work under way on it stops (an " +
      'analysis or a render under way is finished first), then its documents, report PDFs, working ' +
      'documents, findings, events and delivery log are removed, and its workflow history with them; ' +
      'an audit record of the deletion (which review, which key, when) stays. Answered 204 once done; ' +
      'afterwards every read of it is 404.',
    security,
    request: { params: reviewIdParam },
    responses: {
      '204': { description: 'Deleted.', headers: rateLimitHeaders },
      '404': error('`review_not_found`: no such review of your organization and mode.'),
      '422': json(ValidationDetail, 'Malformed `review_id`.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/reviews/{review_id}/documents',
    summary: 'Add documents to a review',
    operationId: 'addDocuments',
    tags: tag('Reviews'),
    description:
      'New evidence, or the filled working document (the report PDF with its decisions). Only ' +
      '`documents` is sent: file parts, or signed URLs exactly as in create. Accepted while the review is ' +
      'queued, processing, awaiting documents or completed; new evidence is re-assessed.',
    security,
    request: {
      params: reviewIdParam,
      body: {
        required: true,
        content: {
          'application/json': { schema: AddDocuments },
          'multipart/form-data': {
            schema: z.strictObject({
              documents: z
                .array(z.string().meta({ format: 'binary' }))
                .min(1)
                .describe('One or more files, as in create.'),
            }),
          },
        },
      },
    },
    responses: {
      '200': {
        ...json(AddDocumentsResult, 'Ingested; dispositions of a working document applied.'),
        headers: rateLimitHeaders,
      },
      '400': error(
        '`document_required`, `document_unsupported`, or a body that is not JSON or multipart (`invalid_request`).',
      ),
      '404': error('`review_not_found`.'),
      '409': error('`all_documents_duplicate`: every document is already on the review.'),
      '413': error('`document_too_large`.'),
      '422': {
        description:
          '`review_failed`, `working_doc_flattened`, `invalid_request` (names the field, e.g. a ' +
          'document url), `too_many_documents` or `documents_too_large` (error envelope); or a malformed ' +
          '`review_id` (validation detail).',
        content: { 'application/json': { schema: z.union([ErrorEnvelope, ValidationDetail]) } },
      },
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/reviews/{review_id}/report',
    summary: 'Get the report',
    operationId: 'getReport',
    tags: tag('Reports'),
    description: 'Each call returns a fresh `report_pdf_url`, valid for 5 minutes.',
    security,
    request: { params: reviewIdParam },
    responses: {
      '200': { ...json(Report, 'The current released report.'), headers: rateLimitHeaders },
      '404': error('`report_not_ready` (keep polling) or `review_not_found`.'),
      '409': error('`report_not_ready`: the release exists but its render is unavailable (stop polling).'),
      '422': {
        description: '`review_failed` (error envelope), or a malformed `review_id` (validation detail).',
        content: { 'application/json': { schema: z.union([ErrorEnvelope, ValidationDetail]) } },
      },
      ...common,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/webhook-endpoints',
    summary: 'Register a webhook endpoint',
    operationId: 'createWebhookEndpoint',
    tags: tag('Webhook endpoints'),
    security,
    request: { body: { required: true, content: { 'application/json': { schema: RegisterEndpoint } } } },
    responses: {
      '201': {
        ...json(RegisteredEndpoint, 'Registered; `signing_secret` is shown this once.'),
        headers: rateLimitHeaders,
      },
      '400': error(
        '`invalid_request`: the URL is not HTTPS or does not resolve only to public addresses, or ' +
          'the body is not JSON.',
      ),
      '422': error(
        '`invalid_request`: another field fails validation, the URL is registered already in this ' +
          'mode, or the organization has as many endpoints in this mode as it may (10 by default).',
      ),
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/webhook-endpoints',
    summary: "List the organization's webhook endpoints of the key's mode",
    operationId: 'listWebhookEndpoints',
    tags: tag('Webhook endpoints'),
    security,
    responses: {
      '200': { ...json(EndpointList, 'Endpoints, without secrets.'), headers: rateLimitHeaders },
      ...common,
    },
  });

  registry.registerPath({
    method: 'delete',
    path: '/webhook-endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    operationId: 'deleteWebhookEndpoint',
    tags: tag('Webhook endpoints'),
    security,
    request: { params: z.object({ id: z.string() }) },
    responses: {
      '204': { description: 'Deleted.', headers: rateLimitHeaders },
      '404': error('`webhook_endpoint_not_found`.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/events',
    summary: "List the organization's events of the key's mode",
    operationId: 'listEvents',
    tags: tag('Events'),
    description:
      'Newest first, by `occurred_at` then `id`: each event the service announced (whether or not an ' +
      'endpoint was registered), as its webhook carried it. Reconcile by `id`: one your receiver has not ' +
      'seen can be sent again with `POST /webhook-endpoints/{id}/deliveries`.',
    security,
    request: { query: EventListQuerySchema },
    responses: {
      '200': { ...json(EventListSchema, 'A page of events.'), headers: rateLimitHeaders },
      '422': error('`invalid_request`: malformed `limit`, `cursor`, `type` or `review_id`.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/webhook-endpoints/{id}/rotate-secret',
    summary: "Rotate an endpoint's signing secret",
    operationId: 'rotateWebhookSecret',
    tags: tag('Webhook endpoints'),
    description:
      'Gives the endpoint a new signing secret, shown this once. For `previous_secret_overlap_seconds` ' +
      "(24 h unless said) every delivery carries two `v1=` signatures, the new secret's and the replaced " +
      "one's, so a receiver verifies with either while it switches. A rotation during an overlap ends the " +
      'earlier overlap: only the secret just replaced keeps signing.',
    security,
    request: {
      params: z.object({ id: z.string() }),
      body: { required: false, content: { 'application/json': { schema: RotateWebhookSecretSchema } } },
    },
    responses: {
      '200': {
        ...json(RotatedWebhookEndpointSchema, 'Rotated; `signing_secret` is shown this once.'),
        headers: rateLimitHeaders,
      },
      '400': error('`invalid_request`: the body is not JSON.'),
      '404': error('`webhook_endpoint_not_found`: no endpoint of this organization and mode has that id.'),
      '422': error('`invalid_request`: `previous_secret_overlap_seconds` is not 0 to 604800, or an unknown field.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/webhook-endpoints/{id}/deliveries',
    summary: 'Send an event again to an endpoint',
    operationId: 'resendEvent',
    tags: tag('Events'),
    description:
      'Delivers the event again to this endpoint, signed afresh, with the same payload (the same `id`: ' +
      'receivers that de-duplicate keep one), in up to 3 attempts as at first; each attempt is recorded in ' +
      "the endpoint's delivery log. Answered 202 once the delivery is on its way.",
    security,
    request: {
      params: z.object({ id: z.string() }),
      body: { required: true, content: { 'application/json': { schema: ResendEventSchema } } },
    },
    responses: {
      '202': { ...json(ResendAcceptedSchema, 'On its way.'), headers: rateLimitHeaders },
      '400': error('`invalid_request`: the body is not JSON.'),
      '404': error('`webhook_endpoint_not_found`: no endpoint of this organization and mode has that id.'),
      '422': error('`invalid_request`: `event_id` is malformed, or no event of this organization and mode.'),
      ...common,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/webhook-endpoints/{id}/deliveries',
    summary: "List an endpoint's recent delivery attempts",
    operationId: 'listWebhookDeliveries',
    tags: tag('Webhook endpoints'),
    description:
      'Newest first: each attempt to deliver an event to this endpoint, with the event `id` its ' +
      'payload carried, the HTTP status the endpoint answered and how long it took.',
    security,
    request: {
      params: z.object({ id: z.string() }),
      query: z.object({
        limit: z.number().int().min(1).max(DELIVERY_LIST_MAX).default(DELIVERY_LIST_DEFAULT).optional(),
      }),
    },
    responses: {
      '200': { ...json(DeliveryList, 'The latest attempts.'), headers: rateLimitHeaders },
      '404': error('`webhook_endpoint_not_found`: no endpoint of this organization and mode has that id.'),
      '422': error('`invalid_request`: malformed `limit`.'),
      ...common,
    },
  });

  for (const event of ['review.completed', 'review.failed', 'review.amended']) {
    registry.registerWebhook({
      method: 'post',
      path: event,
      operationId: event.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase()),
      tags: tag('Webhooks'),
      summary: `${event} delivery`,
      description:
        'Signed with `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw ' +
        'body>">` keyed by the endpoint secret. Up to 3 attempts; de-duplicate on `id`, which is the same on ' +
        'every attempt of an event.',
      request: {
        headers: z.object({ 'X-Service-Signature': z.string() }),
        body: { content: { 'application/json': { schema: Payload } } },
      },
      responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
    });
  }

  return withExamples(
    withRequestIds(
      new OpenApiGeneratorV31(registry.definitions).generateDocument({
        openapi: '3.1.0',
        info: {
          title: 'Loan-package review service',
          version: API_VERSION,
          description:
            'Quality-control review of mortgage loan packages. Errors are `{ error: { code, message ' +
            '} }`; branch on `code`. Every response carries `X-Request-Id`; send your own (1 to 128 letters, ' +
            'digits and `._:+/=-`) to have it used and logged.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: publicBaseUrl }],
        security,
        tags: [...TAGS],
      }),
    ),
  );
}

const tag = (name: Tag) => [name];

/**
 * Every schema's example (api/openapi-examples.ts), added after generation so that none is left out: a
 * schema registered without one stops the document from building.
 */
function withExamples(doc: OpenApiDocument): OpenApiDocument {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (!(name in SCHEMA_EXAMPLES))
      throw new Error(`the OpenAPI schema ${name} has no example (api/openapi-examples.ts)`);
    if (!('$ref' in schema)) schema.example = SCHEMA_EXAMPLES[name];
  }
  return doc;
}

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * `X-Request-Id` on every response (api/request-id.ts), added here, after generation, so that no path can
 * be registered without it. A caller may send its own (the document's description says how); it is not
 * declared as a request parameter: one the service cannot use is replaced, never refused, so there is no
 * invalid value of it for a client or a fuzzer to be told about.
 */
function withRequestIds(doc: OpenApiDocument): OpenApiDocument {
  const header = { $ref: '#/components/headers/RequestId' };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of [item.get, item.post, item.put, item.patch, item.delete]) {
      for (const response of Object.values(operation?.responses ?? {})) {
        if (!('$ref' in response)) response.headers = { ...response.headers, [REQUEST_ID_HEADER]: header };
      }
    }
  }
  doc.components = {
    ...doc.components,
    headers: {
      ...doc.components?.headers,
      RequestId: {
        description:
          'The id under which the service logged this request: yours when you sent a usable ' +
          '`X-Request-Id` (1 to 128 letters, digits and `._:+/=-`), else one it made. Quote it when ' +
          'asking about the request.',
        schema: { type: 'string' },
      },
    },
  };
  return doc;
}
