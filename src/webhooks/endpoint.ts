// The Webhook endpoint resource and its registration request.
import { z } from 'zod';

export const WebhookEndpointSchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  description: z.string(),
  secret_hint: z.string(),
  created_at: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** Only the registration response carries the secret; it cannot be retrieved again. */
export const RegisteredWebhookEndpointSchema = WebhookEndpointSchema.extend({ signing_secret: z.string() });

export const WebhookEndpointListSchema = z.strictObject({ endpoints: z.array(WebhookEndpointSchema) });

export const RegisterWebhookEndpointSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  description: z.string().max(500).optional(),
});
