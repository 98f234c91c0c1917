// A webhook event's id. The workflow mints one per event; deliveries a run scheduled before events had
// ids get one derived here instead.
import { createHash } from 'node:crypto';
import type { WebhookEvent } from './payload.js';

/**
 * The id the workflow minted for the event; for a delivery scheduled before events had ids, one derived
 * from what names the event (review, event, time), so that every attempt of it, on any worker, carries the
 * same: a UUID of version 8 (RFC 9562's custom layout) holding the first 122 bits of their SHA-256.
 */
export function eventIdOf(input: {
  eventId?: string | undefined;
  reviewId: string;
  event: WebhookEvent;
  occurredAt: string;
}): string {
  if (input.eventId) return input.eventId;
  const bytes = createHash('sha256')
    .update(`${input.reviewId}\n${input.event}\n${input.occurredAt}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
