// Webhook fan-out for the review workflow: which endpoints an event goes to, and one delivery activity per
// endpoint and event that makes the interface's 3 attempts itself. Every attempt is recorded; the attempt
// count rides on the heartbeat, so a delivery a crashed worker began continues where it stopped.
import { attemptLabel, workerMetrics } from '../src/telemetry/worker-metrics.js';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { eventPayload, recordEvent } from '../src/db/events.js';
import { recordDeliveryAttempt } from '../src/db/webhook-deliveries.js';
import { deliveryTargets, endpointForDelivery } from '../src/db/webhook-endpoints.js';
import { deliverWithRetries } from '../src/webhooks/delivery.js';
import { WebhookPayloadSchema, type WebhookEvent } from '../src/webhooks/payload.js';
import { decryptSecret } from '../src/webhooks/secret.js';
import { takeDeliverySlot } from '../src/db/webhook-host-pacing.js';

/** One event to one endpoint: ids only; the payload is read from the event's row. */
export interface WebhookDeliveryInput {
  endpointId: string;
  eventId: string;
  /** A delivery continued once its pace allowed: what the call before made and the slot it took. */
  paced?: DeliveryPaced;
}

/**
 * An event the review's workflow announces: its id (minted once by the workflow), the review, and the
 * release it announces (null for review.failed; undefined: the review's current one, read when recorded).
 */
export interface AnnouncedEvent {
  eventId: string;
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  event: WebhookEvent;
  releaseId?: string | null;
  /** When it happened (workflow time): the same in every payload of it. */
  occurredAt: string;
}

export interface DeliveryPaced {
  attemptsMade: number;
  slotAt: string;
}

/** Waits for the pace up to this long are slept here; longer ones are the workflow's (a timer). */
const PACE_WAIT_IN_ACTIVITY_MS = 1_000;

export function createWebhookActivities({ sql, config }: { sql: Sql; config: Config }) {
  return {
    /**
     * Records the event (what GET /v1/events lists and every delivery of it reads), and answers the enabled
     * endpoints of the review's organization and mode it goes to (sandbox reviews: sandbox endpoints only).
     */
    async publishEvent(input: AnnouncedEvent): Promise<string[]> {
      await recordEvent(sql, {
        id: input.eventId,
        reviewId: input.reviewId,
        type: input.event,
        releaseId: input.releaseId,
        occurredAt: input.occurredAt,
      });
      return (await deliveryTargets(sql, input)).map((t) => t.endpoint.id);
    },

    /** Up to 3 attempts, 0.5 s then 1 s apart; all failing is an answer (best effort), not an error. */
    async deliverWebhook(
      input: WebhookDeliveryInput,
    ): Promise<'delivered' | 'not_delivered' | 'endpoint_gone' | { paced: DeliveryPaced }> {
      const target = await endpointForDelivery(sql, input.endpointId);
      // Deleted or disabled since the event: nothing is sent.
      if (!target) return 'endpoint_gone';
      const payload = await eventPayload(sql, input.eventId);
      if (!payload) throw ApplicationFailure.nonRetryable(`event ${input.eventId} was never recorded`);
      const body = JSON.stringify(WebhookPayloadSchema.parse(payload));
      const ctx = Context.current();
      const heartbeatAttempts = typeof ctx.info.heartbeatDetails === 'number' ? ctx.info.heartbeatDetails : 0;
      // A delivery continued after its pace held it (and no attempt made since, by a crashed try of
      // this call): its first attempt takes the slot the call before took, its pause already had.
      const resumed = input.paced && heartbeatAttempts <= input.paced.attemptsMade ? input.paced : undefined;
      const attemptsDone = resumed ? resumed.attemptsMade : heartbeatAttempts;
      const host = new URL(target.endpoint.url).hostname.toLowerCase();
      let held = resumed ? new Date(resumed.slotAt) : undefined;
      const pace = async (): Promise<'go' | { until: Date }> => {
        let wait: number;
        let at: Date;
        if (held) {
          at = held;
          wait = held.getTime() - Date.now();
          held = undefined;
        } else {
          const slot = await takeDeliverySlot(
            sql,
            target.organizationId,
            host,
            config.limits.webhookHostDeliveriesPerSecond,
          );
          at = slot.at;
          wait = slot.at.getTime() - slot.now.getTime();
        }
        if (wait > PACE_WAIT_IN_ACTIVITY_MS) return { until: at };
        if (wait > 0) await ctx.sleep(wait);
        return 'go';
      };
      const result = await deliverWithRetries(
        {
          url: target.endpoint.url,
          secrets: [target.secretCiphertext, target.previousSecretCiphertext]
            .filter((sealed) => sealed !== undefined)
            .map((sealed) => decryptSecret(sealed, config.secrets.webhookKeysAccepted, target.endpoint.id)),
          body,
          allowLoopback: config.testOnlyAllowLoopbackTargets,
        },
        {
          firstAttempt: attemptsDone + 1,
          pausedAlready: resumed !== undefined,
          pace,
          record: async (attempt, outcome) => {
            await recordDeliveryAttempt(sql, {
              endpointId: input.endpointId,
              reviewId: payload.review_id,
              event: payload.event,
              eventId: payload.id,
              releaseId: payload.release_id,
              attempt,
              statusCode: outcome.statusCode,
              error: outcome.error,
              durationMs: outcome.durationMs,
            });
            workerMetrics.webhookDeliveries.inc({
              outcome: outcome.delivered ? 'delivered' : 'failed',
              attempt: attemptLabel(attempt),
            });
            // The owner's list shows a generic reason; operators see the failure itself.
            if (outcome.detail !== outcome.error) {
              ctx.log.warn(`webhook ${payload.event} not delivered, attempt ${attempt}: ${outcome.detail}`, {
                endpoint_id: input.endpointId,
                attempt,
              });
            }
            ctx.heartbeat(attempt);
          },
        },
      );
      if (result.pacedUntil)
        return { paced: { attemptsMade: result.attempts, slotAt: result.pacedUntil.toISOString() } };
      return result.delivered ? 'delivered' : 'not_delivered';
    },
  };
}
