// GET /v1/events lists every event the service announced, as its webhook carried it, whether or not an
// endpoint was registered (newest first, narrowed by type or review, scoped to the key's organization and
// mode); POST /v1/webhook-endpoints/{id}/deliveries sends one again, signed afresh and recorded.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { ReviewSchema } from '../../src/reviews/review.js';
import { WebhookPayloadSchema, type WebhookPayload } from '../../src/webhooks/payload.js';
import { SIGNATURE_HEADER } from '../../src/webhooks/signature.js';
import { pdf } from '../support/fixtures.js';
import { call, errorCode, errorParam, form } from '../support/http.js';
import { registerEndpoint } from '../support/reviews.js';
import { closeShared, newOrganization, stack, type TestOrganization } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

test.after.always(closeShared);

const verifier = new Stripe('sk_test_only_used_for_its_webhook_verifier').webhooks.signature!;

interface EventPage {
  data: WebhookPayload[];
  next_cursor: string | null;
}

const events = async (key: string, query = '') => {
  const res = await call(stack.apiUrl, 'GET', `/events?${query}`, { key });
  if (res.status !== 200) throw new Error(`GET /events?${query}: ${res.status} ${res.text}`);
  const page = res.body as EventPage;
  return { ...page, data: page.data.map((e) => WebhookPayloadSchema.parse(e)) };
};

/** A sandbox create, whose review.completed is announced at once; its review id. */
async function sandboxReview(org: TestOrganization, reference: string): Promise<string> {
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    form: form([{ name: 'cd.pdf', data: await pdf() }], { reference_id: reference }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return ReviewSchema.parse(res.body).review_id;
}

/** The review's events once `n` are recorded (the workflow records them just after the create's answer). */
async function eventsOf(key: string, reviewId: string, n = 1): Promise<WebhookPayload[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { data } = await events(key, `review_id=${reviewId}`);
    if (data.length >= n || Date.now() > deadline) return data;
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('every event is listed newest first as its webhook carried it, endpoint or none; type and review narrow it; another organization or mode sees none', async (t) => {
  const org = await newOrganization();
  // No endpoint yet: the event is recorded all the same.
  const first = await sandboxReview(org, 'EV-1');
  const [unsent] = await eventsOf(org.sandboxKey, first);
  t.like(unsent, { event: 'review.completed', review_id: first, reference_id: 'EV-1', status: 'completed' });
  t.truthy(unsent!.release_id);

  const receiver = await WebhookReceiver.start();
  await registerEndpoint(org.sandboxKey, receiver.url);
  const second = await sandboxReview(org, 'EV-2');
  const [sent] = await eventsOf(org.sandboxKey, second);
  const [delivery] = await receiver.waitFor(1);
  t.deepEqual(JSON.parse(delivery!.body), sent, 'the listed event is the payload delivered');

  const all = await events(org.sandboxKey);
  t.deepEqual(
    all.data.map((e) => e.id),
    [sent!.id, unsent!.id],
  );
  t.deepEqual((await events(org.sandboxKey, 'type=review.completed')).data.length, 2);
  t.deepEqual((await events(org.sandboxKey, 'type=review.failed')).data, []);
  // A page at a time.
  const page1 = await events(org.sandboxKey, 'limit=1');
  t.deepEqual(
    page1.data.map((e) => e.id),
    [sent!.id],
  );
  const page2 = await events(org.sandboxKey, `limit=1&cursor=${encodeURIComponent(page1.next_cursor!)}`);
  t.deepEqual(
    page2.data.map((e) => e.id),
    [unsent!.id],
  );
  t.is(page2.next_cursor, null);
  // A review list's cursor is not an events cursor.
  const reviewCursor = (
    (await call(stack.apiUrl, 'GET', '/reviews?limit=1', { key: org.sandboxKey })).body as {
      next_cursor: string;
    }
  ).next_cursor;
  const wrong = await call(stack.apiUrl, 'GET', `/events?cursor=${encodeURIComponent(reviewCursor)}`, {
    key: org.sandboxKey,
  });
  t.is(errorCode(wrong), 'invalid_request');
  t.is(errorParam(wrong), 'cursor');
  // The live key's events are another list; another organization's, another still.
  t.deepEqual((await events(org.liveKey)).data, []);
  t.deepEqual((await events((await newOrganization()).sandboxKey)).data, []);
  for (const query of ['type=review.done', 'review_id=nope', 'limit=0']) {
    const res = await call(stack.apiUrl, 'GET', `/events?${query}`, { key: org.sandboxKey });
    t.is(res.status, 422, query);
    t.is(errorParam(res), query.split('=')[0], query);
  }
});

test('an event is sent again to an endpoint on request: the same payload, signed afresh, in its delivery log', async (t) => {
  const org = await newOrganization();
  const reviewId = await sandboxReview(org, 'EV-AGAIN');
  const [event] = await eventsOf(org.sandboxKey, reviewId);
  // Registered after the event: only a resend brings it there.
  const receiver = await WebhookReceiver.start();
  const { id, secret } = await registerEndpoint(org.sandboxKey, receiver.url);
  const resend = (body: unknown, key = org.sandboxKey, endpoint = id) =>
    call(stack.apiUrl, 'POST', `/webhook-endpoints/${endpoint}/deliveries`, { key, json: body });

  const res = await resend({ event_id: event!.id });
  t.is(res.status, 202, res.text);
  t.deepEqual(res.body, { endpoint_id: id, event_id: event!.id });
  const [delivery] = await receiver.waitFor(1);
  t.deepEqual(JSON.parse(delivery!.body), event);
  const header = delivery!.headers[SIGNATURE_HEADER.toLowerCase()] as string;
  t.true(verifier.verifyHeader(delivery!.body, header, secret, 300));
  // Recorded once the receiver has answered: read until it is there.
  const logged = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const log = await call(stack.apiUrl, 'GET', `/webhook-endpoints/${id}/deliveries`, { key: org.sandboxKey });
      const [latest] = (log.body as { deliveries: unknown[] }).deliveries;
      if (latest !== undefined || Date.now() > deadline) return latest;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  t.like(await logged(), { event_id: event!.id, delivered: true });

  // What is not the caller's: an unknown event, another organization's endpoint, the other mode's.
  const unknown = await resend({ event_id: randomUUID() });
  t.is(unknown.status, 422);
  t.is(errorParam(unknown), 'event_id');
  const other = await newOrganization();
  const theirs = await registerEndpoint(other.sandboxKey, receiver.url);
  t.is(errorCode(await resend({ event_id: event!.id }, org.sandboxKey, theirs.id)), 'webhook_endpoint_not_found');
  t.is(errorCode(await resend({ event_id: event!.id }, org.liveKey)), 'webhook_endpoint_not_found');
  const foreignEvent = await resend({ event_id: event!.id }, other.sandboxKey, theirs.id);
  t.is(errorParam(foreignEvent), 'event_id');
  t.is(receiver.received.length, 1, 'nothing else was sent');
});
