// A stalled Postgres or Temporal (bytes stop on open connections, as under SIGSTOP or a network partition)
// does not hang requests: each is answered within 10 s with 503, its code and Retry-After, and the API
// serves again once the server does.
import test, { type ExecutionContext } from 'ava';
import { ReviewSchema } from '../../src/reviews/review.js';
import { assertStatus, call, createBody, errorCode, form, whileUnavailable } from '../support/http.js';
import { pdf } from '../support/fixtures.js';
import { waitForReview } from '../support/reviews.js';
import { TestServices } from '../support/services.js';
import { StallProxy } from '../support/stall-proxy.js';
import { closeShared, newOrganization, stack, temporalClient } from '../support/stack.js';
import { onThisMachine } from '../support/machine-load.js';
import { config, db } from '../support/stack.js';
import { leftUnder } from '../support/objects.js';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { REQUEST_DEADLINE_MS } from '../../api/deadline.js';

/** The API's deadline, and a second (stretched on a busy machine) for its timer to fire and the answer to arrive. */
const ANSWERED_WITHIN_MS = () => REQUEST_DEADLINE_MS + onThisMachine(1_000);

const services = new TestServices();
const proxies: StallProxy[] = [];
test.after.always(async () => {
  for (const p of proxies) p.resume();
  await services.stopAll();
  for (const p of proxies) await p.close();
  await closeShared();
});

async function proxy(host: string, port: number): Promise<StallProxy> {
  const p = await new StallProxy({ host, port }).listen();
  proxies.push(p);
  return p;
}

/**
 * An API of its own whose Temporal is behind a proxy the test stalls or kills, and an organization with one
 * review (reference_id `before`) created through it while Temporal answers.
 */
async function behindTemporalProxy(t: ExecutionContext) {
  const [host, port] = stack.serviceEnv.TEMPORAL_ADDRESS!.split(':');
  const temporal = await proxy(host!, Number(port));
  const api = await services.api({ TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}` });
  const org = await newOrganization();
  const before = await call(api.url, 'POST', '/reviews', {
    key: org.liveKey,
    json: createBody({ reference_id: 'before' }),
  });
  assertStatus(t, before, 201);
  return { temporal, api, org };
}

/** A multipart create of one PDF with a reference_id and an Idempotency-Key, as a call to send again. */
function pdfCreate(apiUrl: string, key: string, data: Buffer, referenceId: string, idempotencyKey: string) {
  return () =>
    call(apiUrl, 'POST', '/reviews', {
      key,
      form: form([{ name: 'cd.pdf', data, type: 'application/pdf' }], { reference_id: referenceId }),
      headers: { 'Idempotency-Key': idempotencyKey },
    });
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await work();
  return [result, Date.now() - started];
}

test.serial(
  'a Postgres stall: requests on open connections answer 503 auth_unavailable with Retry-After ' +
    'within 10 s; service resumes after',
  async (t) => {
    const url = new URL(stack.serviceEnv.DATABASE_URL!);
    const pg = await proxy(url.hostname, Number(url.port));
    url.port = String(pg.port);
    const api = await services.api({ DATABASE_URL: url.toString() });
    const org = await newOrganization();
    const created = await call(api.url, 'POST', '/reviews', { key: org.liveKey, json: createBody() });
    t.is(created.status, 201, created.text);
    const { review_id } = ReviewSchema.parse(created.body);
    // Warm: the pool's connections are open when the stall begins.
    assertStatus(t, await call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }), 200);

    pg.stall();
    const answers = await Promise.all(
      [0, 1, 2].map(() => timed(() => call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }))),
    );
    for (const [res, ms] of answers) {
      t.is(res.status, 503, res.text);
      t.is(errorCode(res), 'auth_unavailable');
      t.truthy(res.headers.get('retry-after'));
      t.true(ms < ANSWERED_WITHIN_MS(), `answered in ${ms} ms`);
    }
    t.log(`answered in ${answers.map(([, ms]) => ms).join(', ')} ms`);

    pg.resume();
    const [again, ms] = await timed(() => call(api.url, 'GET', `/reviews/${review_id}`, { key: org.liveKey }));
    t.is(again.status, 200, again.text);
    t.log(`first request after the stall: ${ms} ms`);
  },
);

test.serial(
  'a Temporal stall: every create answers 503 service_unavailable with Retry-After within 10 s and ' +
    'leaves nothing (no review, no kept upload), whether or not its start reaches Temporal after the stall; ' +
    'a retry with its Idempotency-Key then creates the review, one per key',
  async (t) => {
    const { temporal, api, org } = await behindTemporalProxy(t);

    temporal.stall();
    // Every create goes through its review's workflow, small uploads as much as source URLs.
    const cd = await pdf('Closing Disclosure');
    const small = pdfCreate(api.url, org.liveKey, cd, 'small', 'stall-small');
    const bySource = () =>
      call(api.url, 'POST', '/reviews', {
        key: org.liveKey,
        json: createBody({ reference_id: 'during' }),
        headers: { 'Idempotency-Key': 'stall-1' },
      });
    for (const send of [small, bySource]) {
      const [stalled, ms] = await timed(send);
      t.is(stalled.status, 503, stalled.text);
      t.is(errorCode(stalled), 'service_unavailable');
      t.truthy(stalled.headers.get('retry-after'));
      t.true(ms < ANSWERED_WITHIN_MS(), `answered in ${ms} ms`);
    }
    // Reads that need only Postgres are not held up.
    assertStatus(t, await call(api.url, 'GET', '/reviews', { key: org.liveKey }), 200);

    // The stalled starts go on now, or were cancelled by the API's deadline: a workflow they start refuses
    // its create, past its accept time, and discards what was uploaded for it (worker-restart.test.ts
    // shows a held start reaching a workflow that refuses it).
    temporal.resume();
    const reviews = async () =>
      (
        await db()<{ id: string; reference_id: string }[]>`
        select id, reference_id from reviews where organization_id = ${org.id}`
      ).map((r) => r.reference_id);
    const client = await temporalClient();
    for (const { review_id } of await db()<{ review_id: string }[]>`
      select review_id from idempotency_records where organization_id = ${org.id} and key like 'stall-%'`) {
      // Each stalled create's run: ended by its refusal (a start that never reached Temporal has none).
      const run = await client.workflow
        .getHandle(review_id)
        .result()
        .then(
          () => 'ended',
          (err: Error) => err.name,
        );
      t.log(`the stalled create ${review_id}: ${run}`);
    }
    t.deepEqual(await reviews(), ['before'], 'no create answered 503 became a review');
    t.deepEqual(await leftUnder(`uploads/${org.id}/`), [], 'no upload of a refused create is kept');

    // The retries, as the 503 asks, with the same keys: one review each.
    const ids: string[] = [];
    for (const send of [small, bySource]) {
      const retried = await whileUnavailable(send, 60_000);
      t.true(retried.status === 200 || retried.status === 201, retried.text);
      ids.push(ReviewSchema.parse(retried.body).review_id);
      const again = await send();
      t.is(again.status, 200, again.text);
      t.is(ReviewSchema.parse(again.body).review_id, ids.at(-1)!);
    }
    for (const id of ids) {
      const done = await waitForReview(
        org.liveKey,
        id,
        (r) => r.status === 'completed' || r.status === 'failed' || r.status === 'awaiting_documents',
        120_000,
        api.url,
      );
      t.not(done.status, 'failed', id);
      t.true(done.document_count! >= 1, id);
    }
    t.deepEqual((await reviews()).sort(), ['before', 'during', 'small']);
  },
);

test.serial(
  'Temporal stopped and started again: a create answers 503 service_unavailable within 10 s and keeps ' +
    'nothing; its retry with the same Idempotency-Key, once Temporal is back, gives one review',
  async (t) => {
    const { temporal, api, org } = await behindTemporalProxy(t);
    const cd = await pdf('Closing Disclosure');
    const send = pdfCreate(api.url, org.liveKey, cd, 'stopped', 'stopped-1');
    const stopped = () => db()<{ id: string }[]>`
      select id from reviews where organization_id = ${org.id} and reference_id = 'stopped'`;

    temporal.kill();
    const [refused, ms] = await timed(send);
    t.is(refused.status, 503, refused.text);
    t.is(errorCode(refused), 'service_unavailable');
    t.truthy(refused.headers.get('retry-after'));
    t.true(ms < ANSWERED_WITHIN_MS(), `answered in ${ms} ms`);
    t.deepEqual(
      (await stopped()).map((r) => r.id),
      [],
      'no review',
    );
    t.deepEqual(await leftUnder(`uploads/${org.id}/`), [], 'its upload is not kept');

    await temporal.revive();
    const retried = await whileUnavailable(send, 60_000);
    t.true(retried.status === 201 || retried.status === 200, retried.text);
    const { review_id } = ReviewSchema.parse(retried.body);
    const again = await send();
    t.is(again.status, 200, again.text);
    t.is(ReviewSchema.parse(again.body).review_id, review_id);
    t.deepEqual(
      (await stopped()).map((r) => r.id),
      [review_id],
    );
  },
);

test.serial(
  'object storage killed mid-upload: the create answers 503 service_unavailable with Retry-After, ' +
    'within the deadline of the upload ending, and makes no review',
  async (t) => {
    const minio = await proxy(config.minio.endpoint.hostname, Number(config.minio.endpoint.port));
    const api = await services.api({ S3_ENDPOINT: `http://127.0.0.1:${minio.port}` });
    const org = await newOrganization();
    const boundary = 'killed-store-boundary';
    // Large enough that parts are on their way to the store when it dies; under the per-file limit.
    const total = 60 * 1024 * 1024;
    const answered = new Promise<{ status: number; body: string; retryAfter: string | undefined; at: number }>(
      (resolve, reject) => {
        const req = request(`${api.url}/reviews`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${org.liveKey}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body,
              retryAfter: res.headers['retry-after'] as string | undefined,
              at: Date.now(),
            }),
          );
        });
        void (async () => {
          req.write(
            `--${boundary}\r\nContent-Disposition: form-data; name="documents"; ` +
              `filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
          );
          const block = randomBytes(1024 * 1024);
          for (let sent = 0; sent < total; sent += block.length) {
            // The store dies once a fifth of the file is on its way.
            if (sent === total / 5) {
              minio.kill();
              killedAt = Date.now();
            }
            if (!req.write(block)) await new Promise((r) => req.once('drain', r));
          }
          req.end(`\r\n--${boundary}--\r\n`);
          sentAt = Date.now();
        })().catch(() => {});
      },
    );
    let killedAt = 0;
    let sentAt = 0;
    const answer = await answered;
    t.is(answer.status, 503, answer.body);
    t.is((JSON.parse(answer.body) as { error: { code: string } }).error.code, 'service_unavailable');
    t.truthy(answer.retryAfter);
    t.true(killedAt > 0);
    // The caller's time sending its body does not count; the answer comes within the deadline of its end.
    t.true(
      answer.at - Math.max(killedAt, sentAt || killedAt) < ANSWERED_WITHIN_MS(),
      `answered ${answer.at - killedAt} ms after the kill`,
    );
    t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
  },
);
