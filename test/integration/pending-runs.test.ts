// A small live create is recorded by the API, which starts the review's workflow run once it has answered.
// A review recorded by a process that died before starting its run (or while Temporal was unreachable) is
// not lost: every API process looks for reviews whose run is still pending and starts them.
import { silentLogger } from '../../src/telemetry/log.js';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { PENDING_RUN_GRACE_SECONDS, PENDING_RUN_SWEEP_MS } from '../../api/review-runs.js';
import { reviewCreation } from '../../src/reviews/create.js';
import { isRefused } from '../../src/reviews/pipeline.js';
import { uploadKey } from '../../src/storage/keys.js';
import { putStream } from '../../src/storage/minio.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { pdf } from '../support/fixtures.js';
import { assertStatus, call, form } from '../support/http.js';
import { storage } from '../support/objects.js';
import { waitForReview } from '../support/reviews.js';
import { closeShared, config, db, newOrganization, stack, temporalClient } from '../support/stack.js';

test.after.always(closeShared);

const settled = (r: { status: string }) =>
  r.status === 'completed' || r.status === 'failed' || r.status === 'awaiting_documents';

test(
  'a small live create answers 201, its workflow run is started after and the review completes; ' +
    'no run is left pending',
  async (t) => {
    const org = await newOrganization();
    const created = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure'), type: 'application/pdf' }]),
    });
    assertStatus(t, created, 201);
    const { review_id } = ReviewSchema.parse(created.body);
    const done = await waitForReview(org.liveKey, review_id, settled, 60_000);
    t.not(done.status, 'failed');
    const [row] = await db()<
      { run_pending_since: Date | null }[]
    >`select run_pending_since from reviews where id = ${review_id}`;
    t.is(row!.run_pending_since, null);
    // One run, started as the continuation of the review the API recorded.
    const described = await (await temporalClient()).workflow.getHandle(review_id).describe();
    t.is(described.workflowId, review_id);
  },
);

test(
  'a review recorded by a process that died before starting its run is started by an API process ' + 'and completes',
  async (t) => {
    const org = await newOrganization();
    const reviewId = randomUUID();
    const bytes = await pdf('Closing Disclosure');
    const key = uploadKey(org.id);
    const { sha256, size } = await putStream(storage, key, Readable.from([bytes]), 'application/octet-stream', {
      maxBytes: bytes.length,
      tooLarge: () => new Error('too large'),
    });
    // As the API records a small create, and then dies: no run is started for it.
    const recorded = await reviewCreation({ sql: db(), storage, config, log: silentLogger }).fromUploads(
      {
        reviewId,
        organizationId: org.id,
        sandbox: false,
        reviewType: 'mortgage_v1',
        label: 'orphaned',
        referenceId: null,
        metadata: null,
        createdAt: new Date().toISOString(),
        status: 'processing',
        internalState: 'ingesting',
      },
      [{ key, filename: 'cd.pdf', declaredType: 'application/pdf', source: 'upload', content: { sha256, size } }],
      { runOn: config.temporal.taskQueue },
    );
    if (isRefused(recorded)) return t.fail(recorded.refused.message);
    const started = Date.now();
    const done = await waitForReview(
      org.liveKey,
      reviewId,
      settled,
      (PENDING_RUN_GRACE_SECONDS * 1000 + PENDING_RUN_SWEEP_MS) * 2 + 60_000,
    );
    t.not(done.status, 'failed');
    t.is(done.document_count, 1);
    t.log(`started and settled ${Date.now() - started} ms after it was recorded`);
    const [row] = await db()<
      { run_pending_since: Date | null }[]
    >`select run_pending_since from reviews where id = ${reviewId}`;
    t.is(row!.run_pending_since, null);
  },
);
