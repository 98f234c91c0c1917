// What a webhook delivery carries: identifiers and status only; the result is read through the API.
import { z } from '../openapi/zod.js';

export const WEBHOOK_EVENTS = ['review.completed', 'review.failed', 'review.amended'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WebhookPayloadSchema = z.strictObject({
  event: z.enum(WEBHOOK_EVENTS),
  review_id: z.uuid(),
  reference_id: z.string().nullable(),
  status: z.string(),
  occurred_at: z.iso.datetime(),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
