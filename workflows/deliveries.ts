// Delivering one event to one endpoint, paced: the review's announcements and an integrator's request to
// send an event again (resendEventWorkflow) both deliver so. The activity makes the attempts; a delivery
// its host's pace holds back waits here, on a timer, holding no worker.
import { sleep } from '@temporalio/workflow';
import type { DeliveryPaced } from '../activities/webhooks.js';
import { webhooks } from './activity-options.js';

export type DeliveryResult = 'delivered' | 'not_delivered' | 'endpoint_gone';

export async function deliverEvent(endpointId: string, eventId: string, what: string): Promise<DeliveryResult> {
  let paced: DeliveryPaced | undefined;
  for (;;) {
    const delivered = await webhooks.deliverWebhook.executeWithOptions(
      { summary: `Deliver ${what} to endpoint ${endpointId}${paced ? ' (paced)' : ''}` },
      [{ endpointId, eventId, ...(paced ? { paced } : {}) }],
    );
    if (typeof delivered === 'string') return delivered;
    paced = delivered.paced;
    await sleep(Math.max(0, Date.parse(paced.slotAt) - Date.now()));
  }
}

/** An event sent again to one endpoint of its organization and mode, at an integrator's request. */
export async function resendEventWorkflow(input: { endpointId: string; eventId: string }): Promise<DeliveryResult> {
  return deliverEvent(input.endpointId, input.eventId, `event ${input.eventId} again`);
}
