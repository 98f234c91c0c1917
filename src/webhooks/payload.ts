// What a webhook delivery carries: identifiers and status only; the result is read through the API.
import { z } from '../openapi/zod.js';

export const WEBHOOK_EVENTS = ['review.completed', 'review.failed', 'review.amended'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WebhookPayloadSchema = z.strictObject({
  id: z.uuid().describe("The event's id: the same on every attempt and at every endpoint. De-duplicate on it."),
  event: z.enum(WEBHOOK_EVENTS),
  review_id: z.uuid(),
  release_id: z
    .uuid()
    .nullable()
    .describe('The release the event announces (`review.completed`, `review.amended`); null for `review.failed`.'),
  reference_id: z.string().nullable(),
  status: z
    .enum(['completed', 'failed'])
    .describe(
      "The review's status when the event happened: `completed` for review.completed and " +
        'review.amended, `failed` for review.failed.',
    ),
  occurred_at: z.iso.datetime(),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** `GET /events`: a page of the organization's events of the key's mode, narrowed by type or review. */
export const EventListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).optional().meta({ description: 'Opaque; from a previous `next_cursor`.' }),
  type: z.enum(WEBHOOK_EVENTS).optional().meta({ description: 'Only events of this type.' }),
  review_id: z.uuid().optional().meta({ description: "Only this review's events." }),
});

export const EventListSchema = z
  .strictObject({ data: z.array(WebhookPayloadSchema), next_cursor: z.string().nullable() })
  .openapi('EventList');
