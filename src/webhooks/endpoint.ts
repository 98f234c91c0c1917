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

export const WebhookEndpointListSchema = z.strictObject({ endpoints: z.array(WebhookEndpointSchema) });

export const RegisterWebhookEndpointSchema = z.strictObject({
  // Checked by the server beyond its shape (public HTTPS hosts only).
  url: storable(z.string().min(1).max(2048)).openapi({ format: 'uri', pattern: '^https://' }),
  description: storable(z.string().max(500)).optional(),
});
