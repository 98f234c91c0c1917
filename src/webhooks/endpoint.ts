// The Webhook endpoint resource and its registration request.
import { storable, z } from '../openapi/zod.js';

export const WebhookEndpointSchema = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    description: z.string(),
    secret_hint: z.string(),
    created_at: z.iso.datetime(),
  })
  .openapi('WebhookEndpoint');
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/**
 * Only the registration response carries the secret; it cannot be retrieved again. Spelled out as one
 * object: `.extend` of a named schema becomes an `allOf` with a closed object, which nothing can match.
 */
export const RegisteredWebhookEndpointSchema = z
  .strictObject({ ...WebhookEndpointSchema.shape, signing_secret: z.string() })
  .openapi('RegisteredWebhookEndpoint');

/** How long a rotated secret keeps signing beside its successor, by default and at most (seconds). */
export const ROTATION_OVERLAP_DEFAULT_SECONDS = 24 * 3600;
export const ROTATION_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;

export const RotateWebhookSecretSchema = z
  .strictObject({
    previous_secret_overlap_seconds: z
      .number()
      .int()
      .min(0)
      .max(ROTATION_OVERLAP_MAX_SECONDS)
      .default(ROTATION_OVERLAP_DEFAULT_SECONDS)
      .meta({
        description:
          'How long deliveries still carry a signature with the secret being replaced, beside the new ' +
          "one's (0: from now on, only the new one's). 24 h unless said; at most 7 days.",
      }),
  })
  .openapi('RotateWebhookSecret');

/** A rotation's answer: the endpoint, its new secret (shown this once), and when the old one stops signing. */
export const RotatedWebhookEndpointSchema = z
  .strictObject({
    ...WebhookEndpointSchema.shape,
    signing_secret: z.string(),
    previous_secret_expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'Until when deliveries are signed with the replaced secret too; null: no longer.' }),
  })
  .openapi('RotatedWebhookEndpoint');

export const WebhookEndpointListSchema = z.strictObject({ endpoints: z.array(WebhookEndpointSchema) });

export const RegisterWebhookEndpointSchema = z.strictObject({
  // Checked by the server beyond its shape (public HTTPS hosts only).
  url: storable(z.string().min(1).max(2048)).openapi({ format: 'uri', pattern: '^https://' }),
  description: storable(z.string().max(500)).optional(),
});

/** Sending an event again to an endpoint: which event (an `id` from GET /events or a delivery log). */
export const ResendEventSchema = z.strictObject({ event_id: z.uuid() }).openapi('ResendEventRequest');

/** What a resend is answered with (202): it is on its way; its attempts appear in the delivery log. */
export const ResendAcceptedSchema = z
  .strictObject({ endpoint_id: z.uuid(), event_id: z.uuid() })
  .openapi('ResendAccepted');
