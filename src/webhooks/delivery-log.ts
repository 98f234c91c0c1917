// The Webhook delivery resource: one attempt to deliver one event to one endpoint, as recorded when it
// was made, listed per endpoint (GET /v1/webhook-endpoints/{id}/deliveries) newest first.
import { z } from '../openapi/zod.js';
import { WEBHOOK_EVENTS } from './payload.js';

export const WebhookDeliverySchema = z
  .strictObject({
    event_id: z.uuid().describe("The delivered event's `id` (the payload's, and GET /events')."),
    event: z.enum(WEBHOOK_EVENTS),
    review_id: z.uuid(),
    release_id: z.uuid().nullable(),
    attempt: z.number().int().min(1).describe('1 to 3: the attempts of one event at one endpoint.'),
    status_code: z
      .number()
      .int()
      .nullable()
      .describe('The HTTP status the endpoint answered; null when it gave none (refused, timed out).'),
    delivered: z.boolean().describe('Whether the endpoint acknowledged the event with a 2xx.'),
    error: z.string().nullable().describe('Why the attempt failed, when it did.'),
    duration_ms: z.number().int().min(0),
    attempted_at: z.iso.datetime(),
  })
  .openapi('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** How many attempts a list holds at most, and by default. */
export const DELIVERY_LIST_MAX = 100;
export const DELIVERY_LIST_DEFAULT = 50;

export const WebhookDeliveryListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(DELIVERY_LIST_MAX).default(DELIVERY_LIST_DEFAULT),
});

export const WebhookDeliveryListSchema = z.strictObject({ deliveries: z.array(WebhookDeliverySchema) });
