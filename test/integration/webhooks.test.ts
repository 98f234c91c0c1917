// Webhook delivery (interface "Events"; decisions.md, "Webhook secrets" to "Webhook status"): signed with the
// endpoint's secret in the Stripe
// scheme (checked with Stripe's own verifier), retried 3 times about 0.5 s then 1 s apart on a non-2xx or a
// timeout of 10 s, each attempt recorded; all attempts failing changes nothing about the review.
import test from 'ava';
import Stripe from 'stripe';
import { ReviewSchema } from '../../src/reviews/review.js';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { takeDeliverySlot } from '../../src/db/webhook-host-pacing.js';
import { deliverOnce, deliverWithRetries, NO_HTTP_RESPONSE } from '../../src/webhooks/delivery.js';
import { SIGNATURE_HEADER } from '../../src/webhooks/signature.js';
import { pdf } from '../support/fixtures.js';
import { call, errorCode, errorParam, form } from '../support/http.js';
import { deliveryRows, registerEndpoint, waitForReview } from '../support/reviews.js';
import {
  closeShared,
  config,
  db,
  newOrganization,
  stack,
  temporalClient,
  type TestOrganization,
} from '../support/stack.js';
import { TestServices } from '../support/services.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { onThisMachine } from '../support/machine-load.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const verifier = new Stripe('sk_test_only_used_for_its_webhook_verifier').webhooks.signature;
if (!verifier) throw new Error('this stripe package has no webhook signature verifier');

/** A sandbox create: its review.completed goes out at once, to the sandbox endpoints. */
async function sandboxReview(org: TestOrganization, apiUrl = stack.apiUrl, referenceId = 'SBX-HOOK'): Promise<string> {
  const res = await call(apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    form: form([{ name: 'cd.pdf', data: await pdf() }], { reference_id: referenceId }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return ReviewSchema.parse(res.body).review_id;
}

test(
  '500, 500, 200: delivered on the third attempt, about 0.5 s then 1 s apart, each attempt signed ' + 'and recorded',
  async (t) => {
    const org = await newOrganization();
    const receiver = (await WebhookReceiver.start()).script([500, 500], 200);
    const liveReceiver = await WebhookReceiver.start();
    const { secret, id } = await registerEndpoint(org.sandboxKey, receiver.url);
    await registerEndpoint(org.liveKey, liveReceiver.url);
    const reviewId = await sandboxReview(org);

    const [a, b, c] = await receiver.waitFor(3);
    const gaps = [b!.at - a!.at, c!.at - b!.at];
    t.log(`gaps between attempts: ${gaps.map((g) => Math.round(g)).join(' ms, ')} ms`);
    t.true(gaps[0]! >= 450 && gaps[0]! < 500 + onThisMachine(1_500), `first retry after ${gaps[0]} ms`);
    t.true(gaps[1]! >= 950 && gaps[1]! < 1_000 + onThisMachine(2_000), `second retry after ${gaps[1]} ms`);
    t.true(gaps[1]! > gaps[0]!, `the backoff grows: ${gaps.join(' ms, ')} ms`);

    for (const delivery of [a!, b!, c!]) {
      const header = delivery.headers[SIGNATURE_HEADER.toLowerCase()] as string;
      t.regex(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      // Stripe's verifier: HMAC-SHA256 over "<t>.<raw body>", and t within its 5-minute tolerance.
      t.true(verifier.verifyHeader(delivery.body, header, secret, 300));
      t.throws(() => verifier.verifyHeader(delivery.body, header, `${secret}x`, 300));
      // Signed when sent: t is the attempt's own time.
      t.true(Math.abs(Number(/^t=(\d+)/.exec(header)![1]) - Date.now() / 1000) < 60);
    }
    t.is(a!.body, c!.body, 'every attempt carries the same payload, its event id included');
    const payload = JSON.parse(c!.body) as Record<string, unknown>;
    t.deepEqual(Object.keys(payload).sort(), [
      'event',
      'id',
      'occurred_at',
      'reference_id',
      'release_id',
      'review_id',
      'status',
    ]);
    const [release] = await db()<{ id: string }[]>`select id from releases where review_id = ${reviewId}`;
    t.like(payload, {
      event: 'review.completed',
      review_id: reviewId,
      release_id: release!.id,
      reference_id: 'SBX-HOOK',
      status: 'completed',
    });
    // The event happened when the release was made: its time is the report's generated_at.
    const [made] = await db()<
      { generated_at: Date }[]
    >`select generated_at from releases where review_id = ${reviewId}`;
    t.is(payload.occurred_at, made!.generated_at.toISOString());
    t.regex(String(payload.id), UUID);

    t.deepEqual(
      (await deliveryRows(reviewId)).map((r) => [r.endpointId, r.event, r.eventId, r.attempt, r.statusCode]),
      [
        [id, 'review.completed', payload.id, 1, 500],
        [id, 'review.completed', payload.id, 2, 500],
        [id, 'review.completed', payload.id, 3, 200],
      ],
    );
    // Sandbox reviews never deliver to live endpoints.
    await new Promise((r) => setTimeout(r, 1_000));
    t.is(liveReceiver.received.length, 0);
    await receiver.close();
    await liveReceiver.close();
  },
);

test('a receiver slower than 10 s times out and the delivery is retried', async (t) => {
  const org = await newOrganization();
  const receiver = (await WebhookReceiver.start()).script([{ status: 200, delayMs: 12_000 }], 204);
  await registerEndpoint(org.sandboxKey, receiver.url);
  const reviewId = await sandboxReview(org);

  const [first, second] = await receiver.waitFor(2, 40_000);
  const gap = second!.at - first!.at;
  t.log(`second attempt ${Math.round(gap)} ms after the first reached the receiver`);
  // The second attempt follows the first's 10 s and 0.5 s of backoff. The receiver sees the first only
  // once it arrives, up to a second or more after the sender began it on a busy machine, so the gap here
  // has no lower bound but the retry's; that the sender waited its 10 s is its own record, below.
  t.true(gap > 0 && gap < 10_500 + onThisMachine(3_500), `retried ${gap} ms after the first attempt arrived`);
  // The second attempt is recorded once its answer is back, a moment after the receiver saw it.
  let rows = await deliveryRows(reviewId);
  for (let i = 0; i < 50 && rows.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    rows = await deliveryRows(reviewId);
  }
  t.is(rows.length, 2);
  t.like(rows[0], { attempt: 1, statusCode: null });
  t.regex(rows[0]!.error ?? '', /timed out after 10000 ms/);
  // The sender's 10 s run from before it connects, by its own clock: it gave up neither sooner nor much later.
  t.true(
    rows[0]!.durationMs >= 10_000 && rows[0]!.durationMs < 10_000 + onThisMachine(2_000),
    `the first attempt took ${rows[0]!.durationMs} ms`,
  );
  t.like(rows[1], { attempt: 2, statusCode: 204, error: null });
  await receiver.close();
});

test('every attempt failing leaves the review as it was; three attempts and no more', async (t) => {
  const org = await newOrganization();
  const receiver = (await WebhookReceiver.start()).script([], 503);
  await registerEndpoint(org.sandboxKey, receiver.url);
  const reviewId = await sandboxReview(org);
  await receiver.waitFor(3);
  await new Promise((r) => setTimeout(r, 3_000));
  t.is(receiver.received.length, 3);
  t.deepEqual(
    (await deliveryRows(reviewId)).map((r) => [r.attempt, r.statusCode]),
    [
      [1, 503],
      [2, 503],
      [3, 503],
    ],
  );
  const review = await waitForReview(org.sandboxKey, reviewId, () => true);
  t.like(review, { status: 'completed', report_available: true });
});

test('delivery re-checks the target: a non-public address is refused without a request being sent', async (t) => {
  const receiver = await WebhookReceiver.start();
  const outcome = await deliverOnce({ url: receiver.url, secrets: ['whsec_test'], body: '{}', allowLoopback: false });
  t.like(outcome, { delivered: false, statusCode: null, final: true });
  t.regex(outcome.error ?? '', /non-public address/);
  t.is(receiver.received.length, 0);
  await receiver.close();
});

test('a delivery a crashed worker had begun continues with the attempts it has left', async (t) => {
  const receiver = (await WebhookReceiver.start()).script([], 500);
  const pauses: number[] = [];
  const attempts: number[] = [];
  const result = await deliverWithRetries(
    { url: receiver.url, secrets: ['whsec_test'], body: '{"event":"review.completed"}', allowLoopback: true },
    {
      firstAttempt: 2,
      record: async (attempt) => void attempts.push(attempt),
      sleep: async (ms) => void pauses.push(ms),
    },
  );
  t.deepEqual(result, { delivered: false, attempts: 3 });
  t.deepEqual(attempts, [2, 3], 'attempt 1 was made before the crash');
  t.deepEqual(pauses, [500, 1_000]);
  t.is(receiver.received.length, 2);
  await receiver.close();
});

test(
  "an endpoint's deliveries list its latest attempts, newest first, with the event id each " +
    'payload carried; other organizations and modes see none',
  async (t) => {
    const org = await newOrganization();
    const other = await newOrganization();
    const receiver = (await WebhookReceiver.start()).script([503], 200);
    const second = await WebhookReceiver.start();
    const endpoint = await registerEndpoint(org.sandboxKey, receiver.url);
    await registerEndpoint(org.sandboxKey, second.url);
    const reviewId = await sandboxReview(org);
    const [, delivered] = await receiver.waitFor(2);
    const [atSecond] = await second.waitFor(1);
    const eventId = (JSON.parse(delivered!.body) as { id: string }).id;
    t.is((JSON.parse(atSecond!.body) as { id: string }).id, eventId, 'one event, one id, at every endpoint');

    // The attempt is recorded once its answer is back, a moment after the receiver saw it.
    const list = async (key: string, query = '') =>
      call(stack.apiUrl, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries${query}`, { key });
    let res = await list(org.sandboxKey);
    for (let i = 0; i < 50 && (res.body as { deliveries: unknown[] }).deliveries.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await list(org.sandboxKey);
    }
    t.is(res.status, 200, res.text);
    const { deliveries } = res.body as { deliveries: Record<string, unknown>[] };
    t.deepEqual(
      deliveries.map((d) => [d.event_id, d.event, d.review_id, d.attempt, d.status_code, d.delivered]),
      [
        [eventId, 'review.completed', reviewId, 2, 200, true],
        [eventId, 'review.completed', reviewId, 1, 503, false],
      ],
    );
    t.true(Date.parse(String(deliveries[0]!.attempted_at)) >= Date.parse(String(deliveries[1]!.attempted_at)));
    t.deepEqual((await list(org.sandboxKey, '?limit=1')).body, { deliveries: [deliveries[0]] });

    // Scoped like the endpoint: another organization, the other mode, a malformed or unknown id.
    for (const key of [other.sandboxKey, org.liveKey]) {
      const refused = await list(key);
      t.is(refused.status, 404, refused.text);
      t.is((refused.body as { error: { code: string } }).error.code, 'webhook_endpoint_not_found');
    }
    for (const path of [
      '/webhook-endpoints/not-a-uuid/deliveries',
      '/webhook-endpoints/00000000-0000-4000-8000-000000000000/deliveries',
    ]) {
      t.is((await call(stack.apiUrl, 'GET', path, { key: org.sandboxKey })).status, 404);
    }
    for (const bad of ['?limit=0', '?limit=101', '?limit=x']) t.is((await list(org.sandboxKey, bad)).status, 422, bad);
    // A deleted endpoint's attempts go with it.
    t.is(
      (await call(stack.apiUrl, 'DELETE', `/webhook-endpoints/${endpoint.id}`, { key: org.sandboxKey })).status,
      204,
    );
    t.is((await list(org.sandboxKey)).status, 404);
    await receiver.close();
    await second.close();
  },
);

test(
  "a connection or TLS failure is listed to the endpoint's owner in the same words, whatever the " +
    "port held; the worker's log keeps the failure itself",
  async (t) => {
    // A closed port, and a port whose server speaks something other than TLS.
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const notTls = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((resolve) => notTls.listen(0, '127.0.0.1', resolve));
    const notTlsPort = (notTls.address() as AddressInfo).port;

    const refused = await deliverOnce({
      url: `https://127.0.0.1:${closedPort}/hook`,
      secrets: ['whsec_test'],
      body: '{}',
      allowLoopback: true,
    });
    const garbled = await deliverOnce({
      url: `https://127.0.0.1:${notTlsPort}/hook`,
      secrets: ['whsec_test'],
      body: '{}',
      allowLoopback: true,
    });
    for (const outcome of [refused, garbled])
      t.like(outcome, { delivered: false, statusCode: null, error: NO_HTTP_RESPONSE, final: false });
    t.regex(refused.detail ?? '', /ECONNREFUSED/);
    t.notRegex(garbled.detail ?? '', /ECONNREFUSED/);
    t.notDeepEqual(refused.detail, garbled.detail, 'operators still tell them apart');
    notTls.close();
  },
);

test(
  "delivery slots of one organization's host are given once each, one second's worth at once and then " +
    '1 / rate apart, however many take them at the same time',
  async (t) => {
    const org = await newOrganization();
    const host = `pace-${randomUUID()}.example`;
    const slots = await Promise.all(Array.from({ length: 20 }, () => takeDeliverySlot(db(), org.id, host, 5)));
    const ordered = slots.map((s) => ({ at: s.at.getTime(), now: s.now.getTime() })).sort((a, b) => a.at - b.at);
    t.is(new Set(ordered.map((s) => s.at)).size, 20, 'no slot given twice');
    // A host idle until now: its first slot is a full second back, so one second's worth (5, and the one
    // due now) go at once.
    t.true(ordered[0]!.now - ordered[0]!.at >= 1_000);
    // Each later slot comes 1 / rate after the one before it. The slots are taken at the same time, but a
    // taker the database reaches more than a second after that slot's time (a loaded machine) gets a slot
    // within one second of its own time instead: between the two, never sooner. How many of the 20 went at
    // once therefore depends on how fast the database served them, and is only logged.
    for (let i = 1; i < ordered.length; i++) {
      const paced = ordered[i - 1]!.at + 200;
      const { at, now } = ordered[i]!;
      if (now - 1_000 <= paced) t.is(at, paced, `slot ${i}`);
      else t.true(at >= paced && at <= now - 1_000, `slot ${i}, taken late`);
    }
    t.log(`${ordered.filter((s) => s.at <= s.now).length} of 20 due at once (6 when the database keeps up)`);
    // Another host has its own schedule.
    const other = await takeDeliverySlot(db(), org.id, `pace-${randomUUID()}.example`, 5);
    t.true(other.at.getTime() <= other.now.getTime());
  },
);

test(
  "an organization flooding a host delays another's delivery to it by no more than one interval: each " +
    'organization has a schedule of its own per host',
  async (t) => {
    const [flooder, victim] = [await newOrganization(), await newOrganization()];
    const host = `pace-${randomUUID()}.example`;
    const rate = 5;
    const interval = 1_000 / rate;
    // Fifty attempts at once (ten endpoints of a failing receiver, each retried): the flooder's schedule
    // runs 8.8 s ahead (all times here are the database's, as the slots give them).
    const flood = await Promise.all(Array.from({ length: 50 }, () => takeDeliverySlot(db(), flooder.id, host, rate)));
    const floodEnd = Math.max(...flood.map((s) => s.at.getTime()));
    // The victim's first delivery to the host, while the flooder goes on taking slots.
    const [mine, ...more] = await Promise.all([
      takeDeliverySlot(db(), victim.id, host, rate),
      ...Array.from({ length: 10 }, () => takeDeliverySlot(db(), flooder.id, host, rate)),
    ]);
    const wait = mine!.at.getTime() - mine!.now.getTime();
    t.log(`flooder ${Math.round(floodEnd - mine!.now.getTime())} ms ahead; the victim waits ${wait} ms`);
    t.true(floodEnd - mine!.now.getTime() > 10 * interval, "the flood's own schedule runs far ahead");
    t.true(wait <= interval, `the victim waits ${wait} ms, no more than one interval (${interval} ms)`);
    // The flooder still waits behind its own: its later slots follow its schedule, 1 / rate apart.
    const later = more.map((s) => s.at.getTime()).sort((a, b) => a - b);
    t.deepEqual(
      later.map((at) => at - floodEnd),
      Array.from({ length: 10 }, (_, i) => (i + 1) * interval),
    );
    // And the victim's next ones are paced by its own schedule alone: one second's worth goes at once.
    const next = await Promise.all(Array.from({ length: rate }, () => takeDeliverySlot(db(), victim.id, host, rate)));
    for (const s of next) t.true(s.at.getTime() <= s.now.getTime(), `a slot ${s.at.getTime() - s.now.getTime()} ms on`);
  },
);

test(
  "a delivery its host's pace holds back stops before the attempt and says until when; continued, " +
    'it skips the pause it had',
  async (t) => {
    const receiver = (await WebhookReceiver.start()).script([], 500);
    const until = new Date(Date.now() + 5_000);
    const pauses: number[] = [];
    const attempts: number[] = [];
    const request = { url: receiver.url, secrets: ['whsec_test'], body: '{}', allowLoopback: true };
    const record = async (attempt: number) => void attempts.push(attempt);
    const sleep = async (ms: number) => void pauses.push(ms);
    const held = await deliverWithRetries(request, {
      record,
      sleep,
      pace: async (attempt) => (attempt === 2 ? { until } : 'go'),
    });
    t.deepEqual(held, { delivered: false, attempts: 1, pacedUntil: until });
    t.deepEqual(attempts, [1]);
    t.deepEqual(pauses, [500], 'the pause before attempt 2 was had before the pace held it');
    const continued = await deliverWithRetries(request, {
      firstAttempt: 2,
      pausedAlready: true,
      record,
      sleep,
      pace: async () => 'go',
    });
    t.deepEqual(continued, { delivered: false, attempts: 3 });
    t.deepEqual(attempts, [1, 2, 3]);
    t.deepEqual(pauses, [500, 1_000]);
    await receiver.close();
  },
);

test(
  'deliveries to one host are paced fleet-wide: six endpoints on one host at 1 a second are each ' +
    'delivered once, a second apart after the burst, and the workflow waits for the later ones',
  async (t) => {
    t.timeout(120_000);
    const queue = { TEMPORAL_TASK_QUEUE: `paced-${randomUUID()}`, WEBHOOK_HOST_DELIVERIES_PER_SECOND: '1' };
    const org = await newOrganization();
    // Its own host (::1), so no other test's deliveries share its schedule.
    const receiver = await WebhookReceiver.start('::1');
    for (let i = 0; i < 6; i++) await registerEndpoint(org.sandboxKey, `${receiver.url}?endpoint=${i}`);
    await services.worker(queue);
    const api = await services.api(queue);
    const reviewId = await sandboxReview(org, api.url);

    const received = (await receiver.waitFor(6, 60_000)).map((d) => d.at).sort((a, b) => a - b);
    const offsets = received.map((at) => Math.round(at - received[0]!));
    t.log(`arrivals after the first: ${offsets.join(', ')} ms`);
    // One second's worth and the one due now go at once; each later one has a slot of its own a second on
    // (measured between paced ones: each arrival also carries its own connection's time, a first TLS
    // handshake included, which the slot does not).
    t.true(offsets[1]! < onThisMachine(1_000), 'the first two go at once');
    for (let i = 3; i < 6; i++) {
      const after = received[i]! - received[2]!;
      t.true(after >= (i - 2) * 1_000 - 250, `delivery ${i + 1} came ${Math.round(after)} ms after the third`);
    }
    await new Promise((r) => setTimeout(r, 1_000));
    t.is(receiver.received.length, 6, 'each endpoint once');
    let rows = await deliveryRows(reviewId);
    for (let i = 0; i < 50 && rows.length < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await deliveryRows(reviewId);
    }
    t.deepEqual(
      rows.map((r) => [r.attempt, r.statusCode, r.error]),
      Array.from({ length: 6 }, () => [1, 200, null]),
    );
    // The deliveries whose slot was more than a moment away went back to the workflow, which slept until it.
    const history = await (await temporalClient()).workflow.getHandle(reviewId).fetchHistory();
    const events = history.events ?? [];
    const scheduled = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhook',
    ).length;
    const timers = events.filter((e) => e.timerStartedEventAttributes).length;
    t.true(scheduled > 6 && timers >= 1, `${scheduled} delivery activities, ${timers} timers`);
    await receiver.close();
  },
);

test(
  'an organization flooding a failing receiver does not hold back another organization delivering to the ' +
    'same host: its delivery goes at once, not after the flood',
  async (t) => {
    t.timeout(300_000);
    const queue = { TEMPORAL_TASK_QUEUE: `fair-${randomUUID()}`, WEBHOOK_HOST_DELIVERIES_PER_SECOND: '1' };
    const [flooder, victim] = [await newOrganization(), await newOrganization()];
    // Two receivers on one host, 127.0.0.1 (a host is its name, whatever the port): the flooder's fails.
    const failing = (await WebhookReceiver.start()).script([], 500);
    const receiver = await WebhookReceiver.start();
    const maxEndpoints = config.limits.maxWebhookEndpoints;
    for (let i = 0; i < maxEndpoints; i++) await registerEndpoint(flooder.sandboxKey, `${failing.url}?endpoint=${i}`);
    await registerEndpoint(victim.sandboxKey, receiver.url);
    await services.worker(queue);
    const api = await services.api(queue);
    // Three reviews' events to every endpoint, 3 attempts each: at 1 a second, a flood of 90 s or more.
    for (let i = 0; i < 3; i++) await sandboxReview(flooder, api.url, `SBX-FLOOD-${i}`);
    const ahead = async () => {
      const [row] = await db()<{ s: number }[]>`
        select extract(epoch from next_at - clock_timestamp())::float8 as s from webhook_host_pacing
         where organization_id = ${flooder.id} and host = '127.0.0.1'`;
      return row?.s ?? 0;
    };
    const deadline = Date.now() + 120_000;
    while ((await ahead()) < 10) {
      if (Date.now() > deadline) throw new Error(`the flood never ran 10 s ahead: ${await ahead()} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    t.log(`the flooder's schedule runs ${Math.round(await ahead())} s ahead`);

    const reviewId = await sandboxReview(victim, api.url);
    const [delivery] = await receiver.waitFor(1, 120_000);
    // The flood goes on after it: the delivery came in the middle of the flood, not after it.
    const floodBefore = failing.received.filter((d) => d.at <= delivery!.at).length;
    await failing.waitFor(floodBefore + 5, 60_000);
    t.log(`${floodBefore} of the flood's ${maxEndpoints * 3 * 3} attempts came before the delivery`);
    t.deepEqual(
      (await deliveryRows(reviewId)).map((r) => [r.attempt, r.statusCode]),
      [[1, 200]],
    );
    // It waited no more than one interval (1 s at 1 a second) for its slot: a longer wait goes back to the
    // workflow, for a timer and a second activity. The flood, however far its schedule runs ahead, is not in
    // its way (with one schedule per host it would have waited behind the whole of it, 10 s and more).
    const history = await (await temporalClient()).workflow.getHandle(reviewId).fetchHistory();
    const deliveries = (history.events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhook',
    ).length;
    t.is(deliveries, 1, 'one delivery activity, never held back by the pace');
    await failing.close();
    await receiver.close();
  },
);

test(
  "rotating an endpoint's secret shows the new one once; for the overlap every delivery carries both " +
    "signatures, which Stripe's verifier accepts with either secret; without one, or once it ends, only the new",
  async (t) => {
    const org = await newOrganization();
    const receiver = await WebhookReceiver.start();
    const { secret: first, id } = await registerEndpoint(org.sandboxKey, receiver.url);
    const rotate = (body?: unknown, key = org.sandboxKey, endpoint = id) =>
      call(stack.apiUrl, 'POST', `/webhook-endpoints/${endpoint}/rotate-secret`, {
        key,
        ...(body === undefined ? {} : { json: body }),
      });
    const rotated = (res: Awaited<ReturnType<typeof rotate>>) =>
      res.body as { signing_secret: string; secret_hint: string; previous_secret_expires_at: string | null };
    const signatures = (header: string) => header.split(',').filter((p) => p.startsWith('v1=')).length;
    const nextDelivery = async (reference: string) => {
      const before = receiver.received.length;
      await sandboxReview(org, stack.apiUrl, reference);
      const deliveries = await receiver.waitFor(before + 1);
      const d = deliveries[before]!;
      return { body: d.body, header: d.headers[SIGNATURE_HEADER.toLowerCase()] as string };
    };

    // The default overlap: 24 hours.
    const res = await rotate();
    t.is(res.status, 200, res.text);
    const second = rotated(res).signing_secret;
    t.regex(second, /^whsec_[0-9A-Za-z]{32}$/);
    t.not(second, first);
    t.is(rotated(res).secret_hint, `whsec_…${second.slice(-4)}`);
    const overlapHours = (Date.parse(rotated(res).previous_secret_expires_at!) - Date.now()) / 3_600_000;
    t.true(overlapHours > 23.9 && overlapHours <= 24, `${overlapHours} h`);
    // Shown once: the listing has the hint only.
    const listed = await call(stack.apiUrl, 'GET', '/webhook-endpoints', { key: org.sandboxKey });
    t.false(listed.text.includes(second));

    const during = await nextDelivery('SBX-ROT-1');
    t.is(signatures(during.header), 2, during.header);
    t.true(verifier.verifyHeader(during.body, during.header, second, 300), 'the new secret verifies');
    t.true(verifier.verifyHeader(during.body, during.header, first, 300), 'the replaced one still does');

    // No overlap: the replaced secret stops signing at once.
    const now = await rotate({ previous_secret_overlap_seconds: 0 });
    t.is(now.status, 200, now.text);
    t.is(rotated(now).previous_secret_expires_at, null);
    const third = rotated(now).signing_secret;
    const after = await nextDelivery('SBX-ROT-2');
    t.is(signatures(after.header), 1, after.header);
    t.true(verifier.verifyHeader(after.body, after.header, third, 300));
    for (const old of [first, second]) t.throws(() => verifier.verifyHeader(after.body, after.header, old, 300));

    // An overlap that has ended signs no more.
    const brief = await rotate({ previous_secret_overlap_seconds: 1 });
    const fourth = rotated(brief).signing_secret;
    await new Promise((r) => setTimeout(r, Date.parse(rotated(brief).previous_secret_expires_at!) - Date.now() + 500));
    const ended = await nextDelivery('SBX-ROT-3');
    t.is(signatures(ended.header), 1, ended.header);
    t.true(verifier.verifyHeader(ended.body, ended.header, fourth, 300));
    t.throws(() => verifier.verifyHeader(ended.body, ended.header, third, 300));

    // Another organization's endpoint, the other mode's, and an unknown id are not found; a bad overlap is 422.
    const other = await newOrganization();
    t.is(errorCode(await rotate(undefined, other.sandboxKey)), 'webhook_endpoint_not_found');
    t.is(errorCode(await rotate(undefined, org.liveKey)), 'webhook_endpoint_not_found');
    t.is(errorCode(await rotate(undefined, org.sandboxKey, randomUUID())), 'webhook_endpoint_not_found');
    const tooLong = await rotate({ previous_secret_overlap_seconds: 8 * 24 * 3600 });
    t.is(tooLong.status, 422);
    t.is(errorParam(tooLong), 'previous_secret_overlap_seconds');
  },
);
