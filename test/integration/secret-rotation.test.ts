// Rotating SERVER_SECRET and WEBHOOK_SECRET_KEY: an API given new secrets, with the old ones as
// *_PREVIOUS, still accepts what the old ones signed (listing cursors), while an API that knows only the
// old secret refuses what the new one signed; `admin webhook-secrets reseal` seals every stored webhook
// secret with the new key, after which the old key opens none of them and can be retired.
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { insertReview } from '../../src/db/reviews.js';
import { decryptSecret } from '../../src/webhooks/secret.js';
import { runAdmin } from '../support/admin.js';
import { call, errorCode } from '../support/http.js';
import { TestServices } from '../support/services.js';
import { closeShared, config, db, newOrganization, stack } from '../support/stack.js';

const services = new TestServices();
const rotated = {
  SERVER_SECRET: `rotated-server-secret-${randomBytes(16).toString('hex')}`,
  SERVER_SECRET_PREVIOUS: config.secrets.server,
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_SECRET_KEY_PREVIOUS: config.secrets.webhookKey.toString('base64'),
};
let rotatedApi: string;

test.before(async () => {
  rotatedApi = (await services.api(rotated)).url;
});
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

test(
  'a listing cursor signed with the secret replaced is still accepted; one signed with the new ' +
    'secret is not accepted by an API without it',
  async (t) => {
    const org = await newOrganization();
    for (let i = 0; i < 3; i++) {
      await insertReview(db(), {
        id: randomUUID(),
        organizationId: org.id,
        sandbox: false,
        status: 'completed',
        internalState: 'released',
        reviewType: 'mortgage_v1',
        label: null,
        referenceId: null,
        metadata: null,
        createdAt: new Date(Date.now() - i * 1000),
      });
    }
    const page = (base: string, cursor?: string) =>
      call(base, 'GET', `/reviews?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        key: org.liveKey,
      });
    const before = (await page(stack.apiUrl)).body as { next_cursor: string };
    const after = await page(rotatedApi, before.next_cursor);
    t.is(after.status, 200, after.text);
    const newer = (after.body as { next_cursor: string }).next_cursor;
    const refused = await page(stack.apiUrl, newer);
    t.is(refused.status, 422);
    t.is(errorCode(refused), 'invalid_request');
    t.is((await page(rotatedApi, newer)).status, 200);
  },
);

test(
  'webhook-secrets reseal seals every stored signing secret with the new key: the old key opens ' +
    'none of them after',
  async (t) => {
    const org = await newOrganization();
    const registered = await call(stack.apiUrl, 'POST', '/webhook-endpoints', {
      key: org.liveKey,
      json: { url: 'https://93.184.216.34/hooks/rotation' },
    });
    t.is(registered.status, 201, registered.text);
    const { id, signing_secret: secret } = registered.body as { id: string; signing_secret: string };
    const sealed = async () =>
      (await db()`select secret_ciphertext from webhook_endpoints where id = ${id}`)[0]!.secret_ciphertext as Buffer;
    t.is(decryptSecret(await sealed(), config.secrets.webhookKey, id), secret);

    // This organization's only: the suite's other endpoints stay sealed with the key the suite's worker has.
    const run = await runAdmin(['webhook-secrets', 'reseal', '--org', org.id, '--json'], rotated);
    t.is(run.code, 0, run.stderr);
    t.deepEqual(JSON.parse(run.stdout), { resealed: 1 });
    const newKey = Buffer.from(rotated.WEBHOOK_SECRET_KEY, 'base64');
    t.is(decryptSecret(await sealed(), newKey, id), secret);
    const resealed = await sealed();
    t.throws(
      () => decryptSecret(resealed, config.secrets.webhookKey, id),
      undefined,
      'the replaced key opens it no more',
    );
    // Sealed with either, the ring opens it.
    t.is(decryptSecret(resealed, [newKey, config.secrets.webhookKey], id), secret);
  },
);
