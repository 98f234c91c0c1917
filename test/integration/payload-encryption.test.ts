// What the service hands Temporal is sealed (src/temporal/payload-codec.ts): a history read without the
// key (the Temporal server's database, an operator's export, the UI without its codec server) holds no
// signed source URL, file name, label or metadata of the integrator's; the codec server opens it for the
// UI's origins.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { ENCRYPTED_ENCODING, PayloadEncryptionCodec } from '../../src/temporal/payload-codec.js';
import { pdf } from '../support/fixtures.js';
import { encodingOf, payloadsIn } from '../support/history-payloads.js';
import type { JsonPayload } from '../../src/temporal/codec-server.js';
import { call } from '../support/http.js';
import { waitForReview } from '../support/reviews.js';
import { closeShared, config, newOrganization, stack } from '../support/stack.js';
import { sharedSources } from '../support/source-server.js';

test.after.always(closeShared);

test(
  "a review's history, read without the key, holds none of the integrator's values; the codec " +
    'server opens them for the UI',
  async (t) => {
    const { server: files } = await sharedSources();
    const org = await newOrganization();
    const marker = randomUUID().slice(0, 8);
    const signature = `sig${randomUUID().replaceAll('-', '')}`;
    const url = `${files.file(`/loan-${marker}.pdf`, await pdf('Closing Disclosure'))}&X-Amz-Signature=${signature}`;
    const label = `Refinance of Jane Borrower ${marker}`;
    const filename = `jane-borrower-cd-${marker}.pdf`;
    const res = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      json: {
        label,
        metadata: { loan_officer: `officer-${marker}` },
        documents: [{ filename, content_type: 'application/pdf', url }],
      },
    });
    t.is(res.status, 201, res.text);
    const { review_id } = ReviewSchema.parse(res.body);
    await waitForReview(org.liveKey, review_id, (r) => r.status === 'completed');

    // A client without the codec: what the server stores and exports.
    const connection = await connectTemporal(config);
    const plain = new Client({ connection, namespace: config.temporal.namespace });
    const json = JSON.parse(historyToJSON(await plain.workflow.getHandle(review_id).fetchHistory())) as unknown;
    await connection.close();
    const found = payloadsIn(json);
    // Search attributes are indexed by Temporal, so plain (ids, states and the reference id only).
    const payloads = found.filter((p) => !p.path.includes('searchAttributes'));
    t.true(
      found.some((p) => /activityTaskCompletedEventAttributes\.result\./.test(p.path)),
      "activities' results are among the sealed",
    );
    t.true(
      found.some((p) => /activityTaskScheduledEventAttributes\.input\./.test(p.path)),
      "activities' inputs are among the sealed",
    );
    t.true(payloads.length > 10, `${payloads.length} payloads`);
    t.deepEqual(
      payloads.filter((p) => encodingOf(p.payload) !== ENCRYPTED_ENCODING).map((p) => p.path),
      [],
      'every payload is sealed',
    );
    const readable = [
      JSON.stringify(json),
      ...found.map((p) => Buffer.from(p.payload.data ?? '', 'base64').toString('latin1')),
    ].join('\n');
    for (const secret of [signature, `loan-${marker}`, filename, label, `officer-${marker}`])
      t.false(readable.includes(secret), `${secret} is not in the history`);

    // The UI's browser asks the codec server, from the UI's origin.
    const origin = 'http://127.0.0.1:8233';
    const server = createCodecServer(new PayloadEncryptionCodec(config.temporal.payloadKeys), [origin]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const codecUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const preflight = await fetch(`${codecUrl}/decode`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      t.is(preflight.headers.get('access-control-allow-origin'), origin);
      const elsewhere = await fetch(`${codecUrl}/decode`, {
        method: 'OPTIONS',
        headers: { origin: 'https://attacker.example' },
      });
      t.is(elsewhere.headers.get('access-control-allow-origin'), null, 'no other origin may read its answers');

      const decoded = await fetch(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-namespace': config.temporal.namespace, origin },
        body: JSON.stringify({ payloads: payloads.map((p) => p.payload) }),
      });
      t.is(decoded.status, 200);
      const opened = ((await decoded.json()) as { payloads: JsonPayload[] }).payloads;
      t.is(opened.length, payloads.length);
      t.true(opened.every((p) => encodingOf(p) !== ENCRYPTED_ENCODING));
      const text = opened.map((p) => Buffer.from(p.data ?? '', 'base64').toString('utf8')).join('\n');
      for (const value of [url, filename, label]) t.true(text.includes(value), `${value} is shown to the operator`);

      const malformed = await fetch(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"payloads": "x"}',
      });
      t.is(malformed.status, 400);
    } finally {
      server.close();
    }
  },
);
