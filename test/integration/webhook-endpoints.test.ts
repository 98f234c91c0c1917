// Webhook endpoint management: register (201, secret once), list (no secret), delete (204 / 404), scoped
// to the organization and to the key's mode, with every non-public target refused.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { decryptSecret } from '../../src/webhooks/secret.js';
import { RegisteredWebhookEndpointSchema, WebhookEndpointListSchema } from '../../src/webhooks/endpoint.js';
import { assertStatus, call, errorCode } from '../support/http.js';
import { closeShared, config, db, newOrganization, stack } from '../support/stack.js';
import { TestServices } from '../support/services.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, opts);
// An IP literal of a public host: no DNS is needed (this machine has none for public names).
const PUBLIC_URL = 'https://93.184.216.34/hooks/loan-review';

test('registration returns 201 with the signing secret once; it is stored encrypted', async (t) => {
  const org = await newOrganization();
  const res = await api('POST', '/webhook-endpoints', {
    key: org.liveKey,
    json: { url: PUBLIC_URL, description: 'LOS inbox' },
  });
  t.is(res.status, 201);
  const endpoint = RegisteredWebhookEndpointSchema.parse(res.body);
  t.like(endpoint, { url: PUBLIC_URL, description: 'LOS inbox', enabled: true });
  t.regex(endpoint.signing_secret, /^whsec_[0-9A-Za-z]{32}$/);
  t.is(endpoint.secret_hint, `whsec_…${endpoint.signing_secret.slice(-4)}`);

  const [row] = await db()`select secret_ciphertext from webhook_endpoints where id = ${endpoint.id}`;
  const sealed = row!.secret_ciphertext as Buffer;
  t.false(sealed.includes(Buffer.from(endpoint.signing_secret)));
  t.is(decryptSecret(sealed, config.secrets.webhookKey, endpoint.id), endpoint.signing_secret);

  const list = await api('GET', '/webhook-endpoints', { key: org.liveKey });
  t.is(list.status, 200);
  const { endpoints } = WebhookEndpointListSchema.parse(list.body);
  const { signing_secret: _secret, ...withoutSecret } = endpoint;
  t.deepEqual(endpoints, [withoutSecret]);
  t.false(list.text.includes(endpoint.signing_secret));
});

test('description is optional (default "") and at most 500 characters', async (t) => {
  const org = await newOrganization();
  const res = await api('POST', '/webhook-endpoints', { key: org.liveKey, json: { url: PUBLIC_URL } });
  t.is(res.status, 201);
  t.is((res.body as { description: string }).description, '');
  const long = await api('POST', '/webhook-endpoints', {
    key: org.liveKey,
    json: { url: PUBLIC_URL, description: 'd'.repeat(501) },
  });
  t.is(long.status, 422);
  t.is(errorCode(long), 'invalid_request');
  t.regex((long.body as { error: { message: string } }).error.message, /description/);
});

test(
  'an organization registers at most 10 endpoints in each mode: the 11th is 422 invalid_request, ' +
    'also when registered at once',
  async (t) => {
    const org = await newOrganization();
    let n = 0;
    const register = (key: string) => api('POST', '/webhook-endpoints', { key, json: { url: `${PUBLIC_URL}/${++n}` } });
    // Twelve at once: ten places, counted under the organization's lock, so exactly two are refused.
    const live = await Promise.all(Array.from({ length: 12 }, () => register(org.liveKey)));
    t.deepEqual(live.map((r) => r.status).sort(), [...Array<number>(10).fill(201), 422, 422]);
    const refused = live.find((r) => r.status === 422)!;
    t.is(errorCode(refused), 'invalid_request');
    t.regex(refused.text, /at most 10 webhook endpoints per organization and mode \(live\)/);
    // The sandbox mode has places of its own; deleting a live endpoint frees one.
    t.is((await register(org.sandboxKey)).status, 201);
    const { endpoints } = WebhookEndpointListSchema.parse(
      (await api('GET', '/webhook-endpoints', { key: org.liveKey })).body,
    );
    t.is(endpoints.length, 10);
    t.is((await api('DELETE', `/webhook-endpoints/${endpoints[0]!.id}`, { key: org.liveKey })).status, 204);
    t.is((await register(org.liveKey)).status, 201);
  },
);

test(
  'a URL registered already in the same mode is 422 invalid_request naming the endpoint; in the ' +
    'other mode, or once deleted, it may be registered',
  async (t) => {
    const org = await newOrganization();
    const register = (key: string) => api('POST', '/webhook-endpoints', { key, json: { url: PUBLIC_URL } });
    const first = await register(org.liveKey);
    t.is(first.status, 201);
    const again = await register(org.liveKey);
    t.is(again.status, 422);
    t.is(errorCode(again), 'invalid_request');
    t.true(again.text.includes(`already registered as endpoint ${(first.body as { id: string }).id}`), again.text);
    t.is((await register(org.sandboxKey)).status, 201, 'the sandbox mode has endpoints of its own');
    t.is(
      (await api('DELETE', `/webhook-endpoints/${(first.body as { id: string }).id}`, { key: org.liveKey })).status,
      204,
    );
    t.is((await register(org.liveKey)).status, 201, 'once deleted, the URL may be registered again');
  },
);

test('non-public or non-HTTPS URLs are 400 invalid_request naming url', async (t) => {
  const org = await newOrganization();
  for (const url of [
    'http://93.184.216.34/hook',
    'https://10.0.0.5/hook',
    'https://192.168.1.20/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.1.1/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost/hook',
    'https://metadata.google.internal/',
    'https://224.0.0.1/',
    'https://0.0.0.0/',
    'https://240.0.0.1/',
    'not a url',
    `https://example.com/${'x'.repeat(2048)}`,
  ]) {
    const res = await api('POST', '/webhook-endpoints', { key: org.liveKey, json: { url } });
    t.is(res.status, 400, url);
    t.is(errorCode(res), 'invalid_request', url);
    t.regex((res.body as { error: { message: string } }).error.message, /url/, url);
  }
  const missing = await api('POST', '/webhook-endpoints', { key: org.liveKey, json: {} });
  t.is(missing.status, 400);
  t.deepEqual(
    WebhookEndpointListSchema.parse((await api('GET', '/webhook-endpoints', { key: org.liveKey })).body).endpoints,
    [],
  );
});

test('loopback targets need the test-only switch, which is off by default', async (t) => {
  const org = await newOrganization();
  // The suite's API runs with the switch on, for the webhook delivery tests.
  assertStatus(
    t,
    await api('POST', '/webhook-endpoints', { key: org.liveKey, json: { url: 'https://127.0.0.1:9443/hook' } }),
    201,
  );
  const strict = await services.api({ TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'false' });
  for (const url of ['https://127.0.0.1:9443/hook', 'https://[::1]:9443/hook', 'https://127.1.2.3/hook']) {
    const res = await call(strict.url, 'POST', '/webhook-endpoints', { key: org.liveKey, json: { url } });
    t.is(res.status, 400, url);
    t.is(errorCode(res), 'invalid_request', url);
  }
  assertStatus(
    t,
    await call(strict.url, 'POST', '/webhook-endpoints', { key: org.liveKey, json: { url: PUBLIC_URL } }),
    201,
  );
});

test('live and sandbox keys each see and delete only their own mode’s endpoints', async (t) => {
  const org = await newOrganization();
  const live = RegisteredWebhookEndpointSchema.parse(
    (await api('POST', '/webhook-endpoints', { key: org.liveKey, json: { url: PUBLIC_URL, description: 'live' } }))
      .body,
  );
  const sandbox = RegisteredWebhookEndpointSchema.parse(
    (
      await api('POST', '/webhook-endpoints', {
        key: org.sandboxKey,
        json: { url: PUBLIC_URL, description: 'sandbox' },
      })
    ).body,
  );
  const listed = async (key: string) =>
    WebhookEndpointListSchema.parse((await api('GET', '/webhook-endpoints', { key })).body).endpoints.map((e) => e.id);
  t.deepEqual(await listed(org.liveKey), [live.id]);
  t.deepEqual(await listed(org.sandboxKey), [sandbox.id]);

  const crossMode = await api('DELETE', `/webhook-endpoints/${live.id}`, { key: org.sandboxKey });
  t.is(crossMode.status, 404);
  t.is(errorCode(crossMode), 'webhook_endpoint_not_found');
  const deleted = await api('DELETE', `/webhook-endpoints/${live.id}`, { key: org.liveKey });
  t.is(deleted.status, 204);
  t.is(deleted.text, '');
  t.deepEqual(await listed(org.liveKey), []);
  assertStatus(t, await api('DELETE', `/webhook-endpoints/${live.id}`, { key: org.liveKey }), 404);
});

test("another organization's endpoint, or an unknown id, is 404 webhook_endpoint_not_found", async (t) => {
  const owner = await newOrganization();
  const stranger = await newOrganization();
  const endpoint = RegisteredWebhookEndpointSchema.parse(
    (await api('POST', '/webhook-endpoints', { key: owner.liveKey, json: { url: PUBLIC_URL } })).body,
  );
  for (const id of [endpoint.id, randomUUID(), 'not-an-id']) {
    const res = await api('DELETE', `/webhook-endpoints/${id}`, { key: stranger.liveKey });
    t.is(res.status, 404, id);
    t.is(errorCode(res), 'webhook_endpoint_not_found', id);
  }
  t.deepEqual(
    WebhookEndpointListSchema.parse((await api('GET', '/webhook-endpoints', { key: stranger.liveKey })).body).endpoints,
    [],
  );
  t.is(
    WebhookEndpointListSchema.parse((await api('GET', '/webhook-endpoints', { key: owner.liveKey })).body).endpoints
      .length,
    1,
  );
});
