// A request's documents are counted against the review's limits as they arrive, by the API itself: more
// source URLs than a review may hold are refused before any is fetched, and multipart parts that together
// pass the per-review size are cut off there, nothing of them kept. Shown on an API of its own with small
// limits whose task queue no worker polls (so it is live, not ready): a request that got past the API
// would wait for a workflow task that never comes (503 after 9 s), so an answer at once can only be the
// API's own.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { insertReview } from '../../src/db/reviews.js';
import { UPLOADS_PREFIX } from '../../src/storage/keys.js';
import { call, errorCode, form } from '../support/http.js';
import { keysUnder } from '../support/objects.js';
import { TestServices } from '../support/services.js';
import { closeShared, db, newOrganization } from '../support/stack.js';

const MiB = 1024 * 1024;
const services = new TestServices();
let api: string;

test.before(async () => {
  const started = await services.api(
    {
      TEMPORAL_TASK_QUEUE: `request-limits-${process.pid}`,
      MAX_REVIEW_DOCUMENTS: '5',
      MAX_FILE_BYTES: String(2 * MiB),
      MAX_REVIEW_BYTES: String(3 * MiB),
    },
    { waitReady: false },
  );
  api = started.url;
});
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

const source = (i: number) => ({
  filename: `doc-${i}.pdf`,
  content_type: 'application/pdf',
  url: `https://documents.example.com/doc-${i}.pdf`,
});

test(
  'more source URLs than a review may still take: 422 too_many_documents before any is fetched, ' +
    'for a create and for added documents',
  async (t) => {
    const org = await newOrganization();
    const documents = Array.from({ length: 6 }, (_, i) => source(i));
    const started = Date.now();
    const created = await call(api, 'POST', '/reviews', { key: org.liveKey, json: { documents } });
    t.is(created.status, 422, created.text);
    t.is(errorCode(created), 'too_many_documents');
    t.regex(created.text, /At most 5 documents a review; 6 source URLs were given/);
    const review = await insertReview(db(), {
      id: randomUUID(),
      organizationId: org.id,
      sandbox: false,
      status: 'completed',
      internalState: 'released',
      reviewType: 'mortgage_v1',
      label: null,
      referenceId: null,
      metadata: null,
      createdAt: new Date(),
    });
    const added = await call(api, 'POST', `/reviews/${review.review_id}/documents`, {
      key: org.liveKey,
      json: { documents },
    });
    t.is(added.status, 422, added.text);
    t.is(errorCode(added), 'too_many_documents');
    // A review holding 3 of its 5 takes 2 more: 3 source URLs are already too many.
    await db()`update reviews set document_count = 3 where id = ${review.review_id}`;
    const fuller = await call(api, 'POST', `/reviews/${review.review_id}/documents`, {
      key: org.liveKey,
      json: { documents: documents.slice(0, 3) },
    });
    t.is(fuller.status, 422, fuller.text);
    t.is(errorCode(fuller), 'too_many_documents');
    t.regex(fuller.text, /this review holds 3, so it takes 2 more; 3 source URLs were given/);
    t.true(Date.now() - started < 9_000, 'answered by the API, not after a workflow task that never comes');
  },
);

test(
  'multipart parts that together pass the per-review size: 422 documents_too_large, and none of ' + 'them is kept',
  async (t) => {
    const org = await newOrganization();
    // Each part within the 2 MiB per-file limit; together 4.5 MiB against the review's 3 MiB.
    const parts = [1, 2, 3].map((i) => ({
      name: `part-${i}.pdf`,
      data: Buffer.alloc(1.5 * MiB, 0x20),
      type: 'application/pdf',
    }));
    const res = await call(api, 'POST', '/reviews', { key: org.liveKey, form: form(parts) });
    t.is(res.status, 422, res.text);
    t.is(errorCode(res), 'documents_too_large');
    t.regex(res.text, /more than the per-review limit of 3145728 bytes/);
    t.deepEqual(await keysUnder(`${UPLOADS_PREFIX}${org.id}/`), [], 'nothing staged is left');
  },
);
