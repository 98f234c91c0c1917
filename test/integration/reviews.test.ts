// POST /v1/reviews starts one workflow per review (workflow id = review id) whose create update writes
// the read model; GET /v1/reviews/{id} reads it back, scoped to the caller's organization.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReviewSchema } from '../../src/reviews/review.js';
import { getStateQuery } from '../../workflows/messages.js';
import {
  OrgIdKey,
  ReferenceIdKey,
  ReviewStatusKey,
  SandboxKey,
  InternalStateKey,
  ReviewTypeKey,
} from '../../src/temporal/search-attribute-keys.js';
import { assertStatus, call, createBody, errorCode, errorMessage, errorParam, form } from '../support/http.js';
import { pdf, zip } from '../support/fixtures.js';
import { describedAt, waitForInternalState } from '../support/reviews.js';
import { closeShared, config, db, newOrganization, stack, temporalClient } from '../support/stack.js';
import { onThisMachine } from '../support/machine-load.js';
import { logRecords, recordOnceItHolds } from '../support/logs.js';

test.after.always(closeShared);

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, opts);

test('a live create returns 201 with exactly the Review fields, status processing', async (t) => {
  const org = await newOrganization();
  const res = await api('POST', '/reviews', {
    key: org.liveKey,
    json: createBody({ label: 'Smith purchase', reference_id: 'LN-1' }),
  });
  t.is(res.status, 201);
  const review = ReviewSchema.parse(res.body);
  t.deepEqual(Object.keys(res.body as object).sort(), Object.keys(ReviewSchema.shape).sort());
  t.is(review.status, 'processing');
  t.is(review.review_type, 'mortgage_v1');
  t.is(review.label, 'Smith purchase');
  t.is(review.reference_id, 'LN-1');
  t.false(review.report_available);
  t.false(review.sandbox);
  t.is(review.created_at, review.updated_at);
});

test('the review is a running workflow in Temporal, searchable by organization, status and reference', async (t) => {
  // Its releases held for approval, the review stays at the release gate for the test to look at.
  const org = await newOrganization({ releasePolicy: 'hold' });
  const reference = `LN-${randomUUID()}`;
  const res = await api('POST', '/reviews', {
    key: org.liveKey,
    json: createBody({ reference_id: reference, metadata: { branch: 'north' } }),
  });
  t.is(res.status, 201);
  const { review_id } = ReviewSchema.parse(res.body);

  const client = await temporalClient();
  const handle = client.workflow.getHandle(review_id);
  await waitForInternalState(review_id, 'release_gate');
  const description = await describedAt(review_id, 'release_gate');
  t.is(description.workflowId, review_id);
  t.is(description.type, 'reviewWorkflow');
  t.is(description.status.name, 'RUNNING');
  t.is(description.taskQueue, config.temporal.taskQueue);
  const attrs = description.typedSearchAttributes;
  t.is(attrs.get(OrgIdKey), org.id);
  t.is(attrs.get(ReviewStatusKey), 'processing');
  t.is(attrs.get(InternalStateKey), 'release_gate');
  t.is(attrs.get(ReferenceIdKey), reference);
  t.is(attrs.get(SandboxKey), false);
  t.is(attrs.get(ReviewTypeKey), 'mortgage_v1');
  t.deepEqual(await description.memo, { metadata: { branch: 'north' } });

  const state = await handle.query(getStateQuery);
  t.like(state, {
    reviewId: review_id,
    organizationId: org.id,
    created: true,
    internalState: 'release_gate',
    rejection: null,
    releases: 0,
  });

  // Operators find it by organization in the visibility store (eventually consistent).
  let found: string[] = [];
  for (let i = 0; i < 40 && found.length === 0; i++) {
    found = [];
    for await (const wf of client.workflow.list({ query: `OrgId = '${org.id}' AND ReferenceId = '${reference}'` }))
      found.push(wf.workflowId);
    if (found.length === 0) await new Promise((r) => setTimeout(r, 250));
  }
  t.deepEqual(found, [review_id]);
});

test('the status row is in Postgres and GET /v1/reviews/{id} returns it', async (t) => {
  const org = await newOrganization({ releasePolicy: 'hold' });
  const created = await api('POST', '/reviews', { key: org.liveKey, json: createBody() });
  const review = ReviewSchema.parse(created.body);
  // The create's own row, first in the transition log.
  const [first] = await db()`select internal_state, status from review_transitions where review_id =
      ${review.review_id} order by id limit 1`;
  t.deepEqual({ ...first }, { internal_state: 'ingesting', status: 'processing' });
  await waitForInternalState(review.review_id, 'release_gate');
  const [row] =
    await db()`select organization_id, status, internal_state, sandbox from reviews where id = ${review.review_id}`;
  t.deepEqual(
    { ...row },
    { organization_id: org.id, status: 'processing', internal_state: 'release_gate', sandbox: false },
  );

  const read = await api('GET', `/reviews/${review.review_id}`, { key: org.liveKey });
  t.is(read.status, 200);
  t.like(read.body, { ...(created.body as object), updated_at: ReviewSchema.parse(read.body).updated_at });
});

test("another organization's review is review_not_found, like a missing one", async (t) => {
  const owner = await newOrganization();
  const stranger = await newOrganization();
  const created = await api('POST', '/reviews', { key: owner.liveKey, json: createBody() });
  assertStatus(t, created, 201);
  const { review_id } = ReviewSchema.parse(created.body);
  const foreign = await api('GET', `/reviews/${review_id}`, { key: stranger.liveKey });
  const missing = await api('GET', `/reviews/${randomUUID()}`, { key: stranger.liveKey });
  t.is(foreign.status, 404);
  t.is(errorCode(foreign), 'review_not_found');
  t.deepEqual(foreign.body, missing.body);
});

test('a malformed review_id is 422 with the detail body', async (t) => {
  const org = await newOrganization();
  const res = await api('GET', '/reviews/not-a-uuid', { key: org.liveKey });
  t.is(res.status, 422);
  t.deepEqual(res.body, {
    detail: [
      {
        loc: ['path', 'review_id'],
        msg: 'Input should be a valid UUID',
        type: 'uuid_parsing',
        ctx: { error: 'invalid UUID format' },
        input: 'not-a-uuid',
      },
    ],
  });
});

test('a duplicate reference_id returns 409 duplicate_reference_id naming the review that holds it, and leaves no second review', async (t) => {
  const org = await newOrganization();
  const first = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'LN-dup' }) });
  t.is(first.status, 201);
  const second = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'LN-dup' }) });
  t.is(second.status, 409);
  t.is(errorCode(second), 'duplicate_reference_id');
  // It names the field, and the review that holds the reference.
  t.is(errorParam(second), 'reference_id');
  t.true(errorMessage(second).includes(ReviewSchema.parse(first.body).review_id), errorMessage(second));
  const rows = await db()`select id from reviews where organization_id = ${org.id}`;
  t.is(rows.length, 1);
  // The same reference in another organization is independent.
  const other = await newOrganization();
  assertStatus(
    t,
    await api('POST', '/reviews', { key: other.liveKey, json: createBody({ reference_id: 'LN-dup' }) }),
    201,
  );
});

test(
  'the workflow of a rejected create ends at once, marked rejected, with no ReviewStatus an ' +
    'operator could mistake for a review',
  async (t) => {
    const org = await newOrganization();
    assertStatus(
      t,
      await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'LN-once' }) }),
      201,
    );
    const requestIds = {
      duplicate: `dup-${randomUUID()}`,
      nested: `nested-${randomUUID()}`,
      small: `small-${randomUUID()}`,
    };
    const duplicate = await api('POST', '/reviews', {
      key: org.liveKey,
      headers: { 'X-Request-Id': requestIds.duplicate },
      json: createBody({ reference_id: 'LN-once' }),
    });
    t.is(errorCode(duplicate), 'duplicate_reference_id');
    // Refused by ingest, on the worker (every create is ingested there): a zip inside a zip, by either key.
    const nestedZip = await zip([{ name: 'inner.zip', data: await zip([{ name: 'a.pdf', data: await pdf() }]) }]);
    const nested = await api('POST', '/reviews', {
      key: org.sandboxKey,
      headers: { 'X-Request-Id': requestIds.nested },
      form: form([{ name: 'nested.zip', data: nestedZip }]),
    });
    t.is(errorCode(nested), 'document_unsupported', nested.text);
    const small = await api('POST', '/reviews', {
      key: org.liveKey,
      headers: { 'X-Request-Id': requestIds.small },
      form: form([{ name: 'nested.zip', data: nestedZip }]),
    });
    t.is(errorCode(small), 'document_unsupported', small.text);
    // A refusal is an answer: one record in the log of the process that refused it, under the request's id,
    // by its code (its message names the caller's files), no failure and no stack trace.
    const workerLog = join(stack.logDir, 'worker.log');
    const refusals = [
      ['worker', requestIds.duplicate, 'duplicate_reference_id'],
      ['worker', requestIds.nested, 'document_unsupported'],
      ['worker', requestIds.small, 'document_unsupported'],
    ] as const;
    for (const [process, id, code] of refusals) {
      const record = await recordOnceItHolds(join(stack.logDir, `${process}.log`), (r) => r.request_id === id);
      t.like(record, { level: 'info', service: process, message: `the create refused: ${code}`, code }, id);
      t.regex(record?.review_id ?? '', /^[0-9a-f-]{36}$/);
    }

    const client = await temporalClient();
    let closed: string[] = [];
    for (let i = 0; i < 40 && closed.length < 3; i++) {
      closed = [];
      for await (const wf of client.workflow.list({
        query: `OrgId = '${org.id}' AND ExecutionStatus = 'Completed' AND InternalState = 'rejected'`,
      }))
        closed.push(wf.workflowId);
      if (closed.length < 3) await new Promise((r) => setTimeout(r, 250));
    }
    t.is(closed.length, 3);
    const codes = [];
    for (const id of closed) {
      const handle = client.workflow.getHandle(id);
      const result = await handle.result();
      t.like(result, { created: false });
      codes.push(result.rejection?.code);
      const attributes = (await handle.describe()).typedSearchAttributes;
      t.is(attributes.get(InternalStateKey), 'rejected');
      t.is(attributes.get(ReviewStatusKey), undefined);
      assertStatus(t, await api('GET', `/reviews/${id}`, { key: org.liveKey }), 404);
    }
    t.deepEqual(codes.sort(), ['document_unsupported', 'document_unsupported', 'duplicate_reference_id']);
    const records = logRecords(await readFile(workerLog, 'utf8'));
    for (const id of closed)
      t.false(
        records.some((r) => r.workflow_id === id && r.level !== 'info' && r.level !== 'debug'),
        `no activity failure is logged for ${id}`,
      );
    // What operators search by: the organization's processing reviews are the one accepted, never a refusal.
    for await (const wf of client.workflow.list({ query: `OrgId = '${org.id}' AND ReviewStatus = 'processing'` }))
      t.false(closed.includes(wf.workflowId));
    // The organization's runs: the review accepted and the three refusals its workflows made.
    let runs = 0;
    for await (const wf of client.workflow.list({ query: `OrgId = '${org.id}'` })) if (wf.workflowId) runs++;
    t.is(runs, 4);
  },
);

test(
  'a reference_id of "null" or "undefined", what a client\'s serialiser makes of a missing value, ' +
    'is refused naming the field',
  async (t) => {
    const org = await newOrganization();
    // As JavaScript sends a null: FormData.append turns it into the text "null".
    const fd = new FormData();
    fd.append('reference_id', null as unknown as string);
    fd.append('documents', new Blob([await pdf()], { type: 'application/pdf' }), 'cd.pdf');
    const multipart = await api('POST', '/reviews', { key: org.liveKey, form: fd });
    t.is(multipart.status, 422, multipart.text);
    t.is(errorCode(multipart), 'invalid_request');
    t.regex(errorMessage(multipart), /reference_id: must be your identifier of the loan, not "null" or "undefined"/);
    const json = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'undefined' }) });
    t.is(json.status, 422, json.text);
    t.regex(json.text, /reference_id/);
    // A reference that merely contains the word is a reference; JSON's null is no reference at all.
    assertStatus(
      t,
      await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: 'null-2026-17' }) }),
      201,
    );
    assertStatus(t, await api('POST', '/reviews', { key: org.liveKey, json: createBody({ reference_id: null }) }), 201);
    const [row] = await db()<{ n: number }[]>`select count(*)::int as n from reviews where organization_id = ${org.id}`;
    t.is(row!.n, 2, 'nothing of the refused creates is kept');
  },
);

test('create validates its body: document_required, invalid_request naming fields, malformed JSON', async (t) => {
  const org = await newOrganization();
  const noDocs = await api('POST', '/reviews', { key: org.liveKey, json: { label: 'x' } });
  t.is(noDocs.status, 400);
  t.is(errorCode(noDocs), 'document_required');
  const emptyDocs = await api('POST', '/reviews', { key: org.liveKey, json: { documents: [] } });
  t.is(errorCode(emptyDocs), 'document_required');

  const unknown = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ colour: 'blue' }) });
  t.is(unknown.status, 422);
  t.is(errorCode(unknown), 'invalid_request');
  t.regex((unknown.body as { error: { message: string } }).error.message, /colour/);

  const badUrl = await api('POST', '/reviews', {
    key: org.liveKey,
    json: { documents: [{ filename: 'a.pdf', content_type: 'application/pdf', url: '' }] },
  });
  t.is(badUrl.status, 422);
  t.regex((badUrl.body as { error: { message: string } }).error.message, /documents\[0\]\.url/);

  const longLabel = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ label: 'x'.repeat(501) }) });
  t.is(longLabel.status, 422);
  t.regex((longLabel.body as { error: { message: string } }).error.message, /label/);

  const otherType = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ review_type: 'auto_v1' }) });
  t.is(otherType.status, 422);
  t.regex((otherType.body as { error: { message: string } }).error.message, /review_type/);

  const malformed = await api('POST', '/reviews', {
    key: org.liveKey,
    headers: { 'content-type': 'application/json' },
    body: '{"documents": [',
  });
  t.is(malformed.status, 400);
  t.is(errorCode(malformed), 'invalid_request');

  t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
});

test(
  'a body over the size limit is answered in the envelope as invalid_request 422 (413 is ' +
    "document_too_large's), not dropped",
  async (t) => {
    const org = await newOrganization();
    const res = await api('POST', '/reviews', {
      key: org.liveKey,
      json: createBody({ label: 'x'.repeat(2 * 1024 * 1024) }),
    });
    t.is(res.status, 422);
    t.is(errorCode(res), 'invalid_request');
    t.regex((res.body as { error: { message: string } }).error.message, /body/);
  },
);

test('text the database cannot hold (a NUL, an unpaired surrogate) is refused at once, naming the field', async (t) => {
  const org = await newOrganization();
  const doc = (filename: string) => ({
    documents: [{ filename, content_type: 'application/pdf', url: 'https://files.example.com/a.pdf' }],
  });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['NUL in label', createBody({ label: 'Smith\u0000purchase' }), /label/],
    ['lone high surrogate in reference_id', createBody({ reference_id: 'LN-\ud800' }), /reference_id/],
    ['lone low surrogate in label', createBody({ label: '\udc00' }), /label/],
    ['NUL in a metadata value', createBody({ metadata: { branch: 'no\u0000rth' } }), /metadata/],
    ['NUL in a metadata key', createBody({ metadata: { 'bra\u0000nch': 'north' } }), /metadata/],
    ['NUL in a document file name', doc('a\u0000.pdf'), /documents\[0\]\.filename/],
    ['NUL in review_type', createBody({ review_type: 'mortgage_v1\u0000' }), /review_type/],
  ];
  for (const [name, json, field] of cases) {
    const started = Date.now();
    const res = await api('POST', '/reviews', { key: org.liveKey, json });
    t.true(res.status === 400 || res.status === 422, `${name}: ${res.status}`);
    t.is(errorCode(res), 'invalid_request', name);
    t.regex((res.body as { error: { message: string } }).error.message, field, name);
    t.true(Date.now() - started < onThisMachine(2_000), `${name} answered in ${Date.now() - started} ms`);
  }
  const hook = await api('POST', '/webhook-endpoints', {
    key: org.liveKey,
    json: { url: 'https://hooks.example.com/in', description: 'LOS\u0000inbox' },
  });
  t.is(hook.status, 422);
  t.regex((hook.body as { error: { message: string } }).error.message, /description/);
  t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
  // A surrogate pair (an emoji) is well-formed text and is stored as sent.
  const emoji = await api('POST', '/reviews', { key: org.liveKey, json: createBody({ label: 'Smith 🏠' }) });
  t.is(emoji.status, 201);
  t.is((emoji.body as { label: string }).label, 'Smith 🏠');
});

test('unknown routes and wrong methods get the error envelope', async (t) => {
  const org = await newOrganization();
  const unknown = await api('GET', '/nothing-here', { key: org.liveKey });
  t.is(unknown.status, 404);
  t.deepEqual(Object.keys((unknown.body as { error: object }).error).sort(), ['code', 'message']);
  const wrong = await api('PATCH', `/reviews/${randomUUID()}`, { key: org.liveKey });
  t.is(wrong.status, 405);
  t.is(wrong.headers.get('allow'), 'GET, DELETE');
  t.truthy(errorCode(wrong));
});
