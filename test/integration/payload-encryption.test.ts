// What the service hands Temporal is sealed (src/temporal/payload-codec.ts): a history read without the
// key (the Temporal server's database, an operator's export, the UI without its codec server) holds no
// signed source URL, file name, label or metadata of the integrator's, not even in a failure's message
// (src/temporal/failure-converter.cjs); the codec server opens it for the UI's origins.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { ENCRYPTED_ENCODING, PayloadEncryptionCodec } from '../../src/temporal/payload-codec.js';
import { REJECTED_CREATE } from '../../src/temporal/search-attribute-keys.js';
import { corruptPdf, pdf } from '../support/fixtures.js';
import { encodingOf, payloadsIn } from '../support/history-payloads.js';
import type { JsonPayload } from '../../src/temporal/codec-server.js';
import { call, errorCode, errorMessage, form } from '../support/http.js';
import { waitForReview } from '../support/reviews.js';
import { closeShared, config, newOrganization, stack, temporalClient } from '../support/stack.js';
import { sharedSources } from '../support/source-server.js';
import { freePort } from '../../scripts/stack/ports.js';

test.after.always(closeShared);

/** A codec server with the stack's keys on a port of its own, answering the UI's `origins`, asking no token. */
async function codecServer(origins: string[]): Promise<{ url: string; close: () => void }> {
  const port = await freePort();
  const server = createCodecServer(new PayloadEncryptionCodec(config.temporal.payloadKeys), {
    allowedOrigins: origins,
    allowedHosts: [`127.0.0.1:${port}`],
    encode: false,
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

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
    const { url: codecUrl, close } = await codecServer([origin]);
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
      close();
    }
  },
);

/** The histories of every run of a workflow, read by a client without the key, once `enough` holds of them. */
async function plainHistories(workflowId: string, enough: (jsons: unknown[]) => boolean): Promise<unknown[]> {
  const client = await temporalClient();
  const connection = await connectTemporal(config);
  const plain = new Client({ connection, namespace: config.temporal.namespace });
  try {
    for (const until = Date.now() + 60_000; ; ) {
      const jsons: unknown[] = [];
      for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
        jsons.push(JSON.parse(historyToJSON(await plain.workflow.getHandle(workflowId, run.runId).fetchHistory())));
      if (enough(jsons) || Date.now() > until) return jsons;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await connection.close();
  }
}

/** The workflow id of the organization's one refused create, once Temporal's visibility lists its closed run. */
async function refusedCreate(organizationId: string): Promise<string> {
  const client = await temporalClient();
  const query = `OrgId = '${organizationId}' AND ExecutionStatus = 'Completed' AND InternalState = '${REJECTED_CREATE}'`;
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    for await (const run of client.workflow.list({ query })) return run.workflowId;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no refused create listed for ${organizationId}`);
}

interface JsonFailure {
  message?: string;
  /** `TypeScriptSDK` for a failure of the service's code; none for the server's own (a timeout). */
  source?: string;
  stackTrace?: string;
  encodedAttributes?: JsonPayload;
  cause?: JsonFailure;
}

/** Every failure in a history's JSON (an update's outcome, an activity's, a workflow task's), causes included. */
function failuresIn(json: unknown): JsonFailure[] {
  if (Array.isArray(json)) return json.flatMap(failuresIn);
  if (typeof json !== 'object' || json === null) return [];
  return Object.entries(json as Record<string, unknown>).flatMap(([k, v]) =>
    // (A workflow task's failure has a `cause` that is an enum, not a failure.)
    ['failure', 'lastFailure', 'cause'].includes(k) && typeof v === 'object' && v !== null
      ? [v as JsonFailure, ...failuresIn(v)]
      : failuresIn(v),
  );
}

interface JsonHistory {
  events?: { workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest?: { input?: { name?: string } } } }[];
}

/** How many of the histories' accepted updates are `name`'s. */
const acceptedUpdates = (jsons: unknown[], name: string): number =>
  (jsons as JsonHistory[])
    .flatMap((h) => h.events ?? [])
    .filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === name).length;

test(
  "failures' messages are sealed too: a refused create's, a refused addition's and a failed review's " +
    "histories, read without the key, name none of the integrator's files, labels or metadata",
  async (t) => {
    const marker = randomUUID().slice(0, 8);
    const secrets: string[] = [];
    const named = (value: string) => {
      secrets.push(value);
      return value;
    };
    const fields = (what: string) => ({
      label: named(`${what} of Jane Borrower ${marker}`),
      metadata: JSON.stringify({ loan_officer: named(`officer-${what}-${marker}`) }),
    });

    // (1) A create whose only file is empty: refused, and its refusal names the file. The integrator is
    // told which file (the API's answer); the history is not.
    const refusedOrg = await newOrganization();
    const emptyName = named(`jane-doe-empty-${marker}.pdf`);
    const refused = await call(stack.apiUrl, 'POST', '/reviews', {
      key: refusedOrg.liveKey,
      form: form([{ name: emptyName, data: Buffer.alloc(0), type: 'application/pdf' }], fields('refused')),
    });
    t.is(refused.status, 400, refused.text);
    t.is(errorCode(refused), 'document_required');
    t.true(errorMessage(refused).includes(emptyName), `the API's answer names the file: ${errorMessage(refused)}`);
    const refusedHistories = await plainHistories(await refusedCreate(refusedOrg.id), (jsons) => jsons.length > 0);

    // (2) Documents added to a review, one accepted and one refused (empty), whose refusal names it.
    const addOrg = await newOrganization();
    const created = await call(stack.apiUrl, 'POST', '/reviews', {
      key: addOrg.liveKey,
      form: form(
        [{ name: named(`first-cd-${marker}.pdf`), data: await pdf(`Closing Disclosure\n${marker}`) }],
        fields('addition'),
      ),
    });
    t.is(created.status, 201, created.text);
    const review = ReviewSchema.parse(created.body);
    const added = await call(stack.apiUrl, 'POST', `/reviews/${review.review_id}/documents`, {
      key: addOrg.liveKey,
      form: form([{ name: named(`second-note-${marker}.pdf`), data: await pdf(`Note\n${marker}`) }]),
    });
    t.is(added.status, 200, added.text);
    const blankName = named(`blank-addition-${marker}.pdf`);
    const refusedAdd = await call(stack.apiUrl, 'POST', `/reviews/${review.review_id}/documents`, {
      key: addOrg.liveKey,
      form: form([{ name: blankName, data: Buffer.alloc(0), type: 'application/pdf' }]),
    });
    t.is(refusedAdd.status, 400, refusedAdd.text);
    t.is(errorCode(refusedAdd), 'document_required');
    t.true(errorMessage(refusedAdd).includes(blankName), errorMessage(refusedAdd));
    await waitForReview(addOrg.liveKey, review.review_id, (r) => r.status === 'completed', 120_000);
    // Every run that took the create and the two additions (a run that had completed is continued by a new one).
    const addHistories = await plainHistories(
      review.review_id,
      (jsons) => acceptedUpdates(jsons, 'createReview') >= 1 && acceptedUpdates(jsons, 'addDocuments') >= 2,
    );
    t.is(acceptedUpdates(addHistories, 'addDocuments'), 2, 'both additions are in the histories read');

    // (3) A package nothing can be read from: the review fails.
    const failedOrg = await newOrganization();
    const broken = await call(stack.apiUrl, 'POST', '/reviews', {
      key: failedOrg.liveKey,
      form: form([{ name: named(`broken-${marker}.pdf`), data: corruptPdf }], fields('failure')),
    });
    t.is(broken.status, 201, broken.text);
    const failedId = ReviewSchema.parse(broken.body).review_id;
    await waitForReview(failedOrg.liveKey, failedId, (r) => r.status === 'failed', 120_000);
    // Its run ends once nothing is in flight: its history whole.
    await (await temporalClient()).workflow.getHandle(failedId).result();
    const failedHistories = await plainHistories(failedId, (jsons) => jsons.length > 0);

    const histories = [...refusedHistories, ...addHistories, ...failedHistories];
    const found = histories.flatMap((json) => payloadsIn(json));
    t.deepEqual(
      found
        .filter((p) => !p.path.includes('searchAttributes') && encodingOf(p.payload) !== ENCRYPTED_ENCODING)
        .map((p) => p.path),
      [],
      'every payload is sealed, failures’ encoded attributes included',
    );
    // The service's failures, not the server's (a timeout's message is the server's words, sealed or not).
    const failures = histories.flatMap(failuresIn).filter((f) => f.source === 'TypeScriptSDK');
    t.true(failures.length >= 2, `the refusals are failures in the histories (${failures.length})`);
    for (const failure of failures) {
      t.is(failure.message, 'Encoded failure', JSON.stringify(failure));
      t.falsy(failure.stackTrace, 'no stack trace in the clear');
      t.is(failure.encodedAttributes && encodingOf(failure.encodedAttributes), ENCRYPTED_ENCODING);
    }
    const readable = [
      JSON.stringify(histories),
      ...found.map((p) => Buffer.from(p.payload.data ?? '', 'base64').toString('latin1')),
    ].join('\n');
    t.true(secrets.length >= 9);
    for (const secret of secrets) t.false(readable.includes(secret), `${secret} is not in the histories`);

    // The codec server opens a failure's encoded attributes for the operator: its message and stack trace.
    const { url: codecUrl, close } = await codecServer([]);
    try {
      const refusal = failuresIn(refusedHistories).find((f) => f.encodedAttributes);
      if (!refusal?.encodedAttributes) throw new Error('the refused create has no encoded failure');
      const decoded = await fetch(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payloads: [refusal.encodedAttributes] }),
      });
      t.is(decoded.status, 200);
      const [opened] = ((await decoded.json()) as { payloads: JsonPayload[] }).payloads;
      const attributes = JSON.parse(Buffer.from(opened?.data ?? '', 'base64').toString('utf8')) as {
        message?: string;
        stack_trace?: string;
      };
      t.true(attributes.message?.includes(emptyName), JSON.stringify(attributes));
      t.is(typeof attributes.stack_trace, 'string');
    } finally {
      close();
    }
  },
);
