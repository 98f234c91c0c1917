// /v1/webhook-endpoints: register (201, the signing secret shown once), list, delete, rotate an endpoint's
// signing secret (the new one shown once, the old one signing beside it for an overlap), and list an
// endpoint's recent delivery attempts. Endpoints belong to the organization and the mode (live or
// sandbox) of the key that registered them.
import { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { endpointDeliveries } from '../../src/db/webhook-deliveries.js';
import {
  deleteEndpoint,
  DuplicateEndpointError,
  EndpointLimitError,
  insertEndpoint,
  listEndpoints,
  ownsEndpoint,
  rotateEndpointSecret,
} from '../../src/db/webhook-endpoints.js';
import { ownsEvent } from '../../src/db/events.js';
import type { ReviewWorkflows } from '../review-workflow.js';
import { checkTarget, UnsafeTargetError } from '../../src/outbound/address-guard.js';
import { WebhookDeliveryListQuerySchema } from '../../src/webhooks/delivery-log.js';
import {
  RegisterWebhookEndpointSchema,
  ResendEventSchema,
  RotateWebhookSecretSchema,
} from '../../src/webhooks/endpoint.js';
import { encryptSecret, generateSigningSecret, secretHint } from '../../src/webhooks/secret.js';
import { caller } from '../auth.js';
import { ApiError } from '../errors.js';
import { invalidRequest } from '../validation.js';
import { methodNotAllowed } from './method-not-allowed.js';

export function webhookEndpointRoutes({
  config,
  sql,
  workflows,
}: {
  config: Config;
  sql: Sql;
  workflows: ReviewWorkflows;
}): Router {
  const router = Router();

  router
    .route('/webhook-endpoints')
    .post(async (req, res) => {
      const who = caller(res);
      if (!req.is('application/json'))
        throw new ApiError('invalid_request', 400, 'Send the endpoint as application/json.');
      const parsed = RegisterWebhookEndpointSchema.safeParse(req.body);
      if (!parsed.success) {
        // Every problem with the URL is the 400 of the specification; other fields are validation (422).
        if (parsed.error.issues.some((i) => i.path[0] === 'url')) {
          throw new ApiError(
            'invalid_request',
            400,
            'Invalid request: url: must be an https:// URL of at most 2048 characters.',
            { param: 'url' },
          );
        }
        throw invalidRequest(parsed.error);
      }
      try {
        await checkTarget(parsed.data.url, { allowLoopback: config.testOnlyAllowLoopbackTargets });
      } catch (err) {
        if (err instanceof UnsafeTargetError) {
          throw new ApiError(
            'invalid_request',
            400,
            `Invalid request: url: ${err.message}; webhooks go only to public HTTPS hosts.`,
            { param: 'url' },
          );
        }
        throw err;
      }
      const secret = generateSigningSecret();
      // Chosen here: the sealed secret is bound to the endpoint's id.
      const id = randomUUID();
      let endpoint: Awaited<ReturnType<typeof insertEndpoint>>;
      try {
        endpoint = await insertEndpoint(
          sql,
          who,
          {
            id,
            url: parsed.data.url,
            description: parsed.data.description ?? '',
            secretCiphertext: encryptSecret(secret, config.secrets.webhookKey, id),
            secretHint: secretHint(secret),
          },
          config.limits.maxWebhookEndpoints,
        );
      } catch (err) {
        if (err instanceof DuplicateEndpointError) {
          throw new ApiError(
            'invalid_request',
            422,
            `Invalid request: url: already registered as endpoint ${err.existingId}; every event ` +
              `would be delivered to it twice.`,
            { param: 'url' },
          );
        }
        if (err instanceof EndpointLimitError) {
          throw new ApiError(
            'invalid_request',
            422,
            `Invalid request: at most ${err.max} webhook endpoints per organization and mode ` +
              `(${who.sandbox ? 'sandbox' : 'live'}); delete one before registering another.`,
          );
        }
        throw err;
      }
      res.status(201).json({ ...endpoint, signing_secret: secret });
    })
    .get(async (_req, res) => {
      res.json({ endpoints: await listEndpoints(sql, caller(res)) });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/webhook-endpoints/:id/deliveries')
    .post(async (req, res) => {
      const who = caller(res);
      const id = String(req.params.id);
      if (!req.is('application/json'))
        throw new ApiError('invalid_request', 400, 'Send the request as application/json.');
      const parsed = ResendEventSchema.safeParse(req.body);
      if (!parsed.success) throw invalidRequest(parsed.error);
      if (!(z.uuid().safeParse(id).success && (await ownsEndpoint(sql, who, id))))
        throw ApiError.of('webhook_endpoint_not_found', 'No such webhook endpoint.');
      // Another organization's event, or the other mode's, is as unknown as one that never was.
      if (!(await ownsEvent(sql, who, parsed.data.event_id)))
        throw new ApiError('invalid_request', 422, 'Invalid request: event_id: no such event of yours.', {
          param: 'event_id',
        });
      await workflows.resendEvent(id, parsed.data.event_id);
      res.status(202).json({ endpoint_id: id, event_id: parsed.data.event_id });
    })
    .get(async (req, res) => {
      const id = String(req.params.id);
      const query = WebhookDeliveryListQuerySchema.safeParse(req.query);
      if (!query.success) throw invalidRequest(query.error);
      const deliveries = z.uuid().safeParse(id).success
        ? await endpointDeliveries(sql, caller(res), id, query.data.limit)
        : undefined;
      if (!deliveries) throw ApiError.of('webhook_endpoint_not_found', 'No such webhook endpoint.');
      res.json({ deliveries });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/webhook-endpoints/:id/rotate-secret')
    .post(async (req, res) => {
      const id = String(req.params.id);
      if (req.headers['content-type'] !== undefined && !req.is('application/json'))
        throw new ApiError('invalid_request', 400, 'Send the rotation as application/json, or with no body.');
      // No body, or an empty one, asks for the default overlap.
      const body: unknown = req.body === undefined || Object.keys(req.body as object).length === 0 ? {} : req.body;
      const parsed = RotateWebhookSecretSchema.safeParse(body);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const notFound = () => ApiError.of('webhook_endpoint_not_found', 'No such webhook endpoint.');
      if (!z.uuid().safeParse(id).success) throw notFound();
      const secret = generateSigningSecret();
      const rotated = await rotateEndpointSecret(sql, caller(res), id, {
        secretCiphertext: encryptSecret(secret, config.secrets.webhookKey, id),
        secretHint: secretHint(secret),
        overlapSeconds: parsed.data.previous_secret_overlap_seconds,
      });
      if (!rotated) throw notFound();
      res.json({
        ...rotated.endpoint,
        signing_secret: secret,
        previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null,
      });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/webhook-endpoints/:id')
    .delete(async (req, res) => {
      const id = String(req.params.id);
      const found = z.uuid().safeParse(id).success && (await deleteEndpoint(sql, caller(res), id));
      if (!found) throw ApiError.of('webhook_endpoint_not_found', 'No such webhook endpoint.');
      res.status(204).end();
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
