// DELETE /v1/reviews/{id}: the review's documents, report PDFs and working documents leave the bucket,
// its rows the database (one audit row stays: which review, which key, when) and its workflow histories
// Temporal; every read of it is 404 afterwards. Scoped like everything else: another organization's key,
// or the other mode's, finds nothing to delete. A review mid-analysis is deleted once the analysis has
// stopped, and nothing of it is written after. An organization's retention deletes its reviews the same
// way once they have been at rest (released or failed) that many days, started by a Temporal Schedule.
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import proto from '@temporalio/proto';
import { findReviewRecord } from '../../src/db/reviews.js';
import { continuingRun, updateReviewRun } from '../../src/temporal/review-runs.js';
import { deleteReviewUpdate, NOT_AT_REST } from '../../workflows/messages.js';
import { historiesDeletionId } from '../../workflows/history-deletion.js';
import { OrgIdKey, ReferenceIdKey } from '../../src/temporal/search-attribute-keys.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { objectExists } from '../../src/storage/minio.js';
import { longPdf, pdf } from '../support/fixtures.js';
import { call, errorCode, form } from '../support/http.js';
import { keysUnder, storage } from '../support/objects.js';
import { scrape, total } from '../support/prometheus.js';
import { analysisRunning, waitForInternalState, waitForReview } from '../support/reviews.js';
import { retentionScheduleId } from '../../src/temporal/retention-schedule.js';
import { deleteExpiredReview, retentionRequester } from '../../src/reviews/retention.js';
import { closeShared, config, db, newOrganization, stack, temporalClient } from '../support/stack.js';

const { temporal } = proto;

test.after.always(closeShared);

const api = (method: string, path: string, key: string, extra: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, { key, ...extra });

/** The object keys a review's rows name, and those under its own prefixes. */
async function objectsOf(reviewId: string): Promise<string[]> {
  const named = await db()<{ key: string }[]>`
    select object_key as key from documents where review_id = ${reviewId}
    union select report_object_key from releases where review_id = ${reviewId}`;
  const under = (
    await Promise.all(
      [`reports/${reviewId}/`, `uploads/sources/${reviewId}/`, `uploads/members/${reviewId}/`].map(keysUnder),
    )
  ).flat();
  return [...new Set([...named.map((n) => n.key), ...under])];
}

const TABLES = [
  'documents',
  'releases',
  'dispositions',
  'release_drafts',
  'review_transitions',
  'events',
  'webhook_deliveries',
  'analysis_slots',
] as const;

async function rowsLeft(reviewId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await db()<
      { n: number }[]
    >`select count(*)::int as n from ${db()(table)} where review_id = ${reviewId}`;
    if (row!.n > 0) counts[table] = row!.n;
  }
  const [review] = await db()<{ n: number }[]>`select count(*)::int as n from reviews where id = ${reviewId}`;
  if (review!.n > 0) counts.reviews = review!.n;
  return counts;
}

/**
 * Whether Temporal still has a run of the review once it has had the time to act on the deletion: it
 * deletes a history in the background after answering the request, within seconds on the stack's servers
 * (scripts/stack/temporal-settings.ts). Says how long that took, or which runs are left.
 */
async function historiesLeft(t: ExecutionContext, reviewId: string): Promise<boolean> {
  const client = await temporalClient();
  const begun = Date.now();
  const deadline = begun + 300_000;
  for (;;) {
    try {
      await client.workflow.getHandle(reviewId).describe();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      t.log(`its history was gone ${((Date.now() - begun) / 1000).toFixed(1)} s after the deletion`);
      return false;
    }
    if (Date.now() > deadline) {
      for await (const run of client.workflow.list({ query: `WorkflowId = '${reviewId}'` }))
        t.log(`left: run ${run.runId}, ${run.status.name}, started ${run.startTime.toISOString()}`);
      return true;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Resolves once the review's run has asked its activity under way to stop (a deletion cancels it), or
 * once `deleted` has settled (the deletion found nothing under way to stop).
 */
async function cancelRequested(reviewId: string, deleted: Promise<unknown>): Promise<void> {
  let settled = false;
  void deleted.finally(() => {
    settled = true;
  });
  const handle = (await temporalClient()).workflow.getHandle(reviewId);
  const { PENDING_ACTIVITY_STATE_CANCEL_REQUESTED } = temporal.api.enums.v1.PendingActivityState;
  const deadline = Date.now() + 120_000;
  while (!settled && Date.now() < deadline) {
    const { raw } = await handle.describe().catch(() => ({ raw: { pendingActivities: [] } }));
    if (raw.pendingActivities?.some((a) => a.state === PENDING_ACTIVITY_STATE_CANCEL_REQUESTED)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!settled) throw new Error(`review ${reviewId}: no activity was asked to stop within 120 s`);
}

test('a completed review is deleted: its objects, rows and workflow histories are gone, an audit row stays, and every read is 404', async (t) => {
  const org = await newOrganization();
  const created = await api('POST', '/reviews', org.liveKey, {
    form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }], { reference_id: 'DEL-1' }),
  });
  t.is(created.status, 201, created.text);
  const { review_id: id } = ReviewSchema.parse(created.body);
  await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 120_000);
  const objects = await objectsOf(id);
  t.true(objects.length >= 2, `a document and a report PDF: ${objects.join(', ')}`);

  const deleted = await api('DELETE', `/reviews/${id}`, org.liveKey);
  t.is(deleted.status, 204, deleted.text);

  for (const key of objects) t.false(await objectExists(storage, key), `${key} is gone`);
  t.deepEqual(await objectsOf(id), []);
  t.deepEqual(await rowsLeft(id), {});
  const [audit] = await db()<{ requested_by: string; reference_id: string; sandbox: boolean }[]>`
    select requested_by, reference_id, sandbox from review_deletions where review_id = ${id}`;
  t.like(audit, { reference_id: 'DEL-1', sandbox: false });
  t.regex(audit!.requested_by, /^api_key:[0-9a-f-]{36}$/);
  t.false(await historiesLeft(t, id), 'no workflow history of it is left');

  t.is(errorCode(await api('GET', `/reviews/${id}`, org.liveKey)), 'review_not_found');
  t.is(errorCode(await api('GET', `/reviews/${id}/report`, org.liveKey)), 'review_not_found');
  const listed = await api('GET', '/reviews?reference_id=DEL-1', org.liveKey);
  t.deepEqual((listed.body as { data: unknown[] }).data, []);
  t.is(errorCode(await api('DELETE', `/reviews/${id}`, org.liveKey)), 'review_not_found');
  // Its reference is free again.
  const again = await api('POST', '/reviews', org.liveKey, {
    form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }], { reference_id: 'DEL-1' }),
  });
  t.is(again.status, 201, again.text);
});

test("another organization's key, or the other mode's, finds nothing to delete, and the review stays", async (t) => {
  const org = await newOrganization();
  const created = await api('POST', '/reviews', org.sandboxKey, {
    form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]),
  });
  const { review_id: id } = ReviewSchema.parse(created.body);
  const other = await newOrganization();
  for (const key of [other.sandboxKey, other.liveKey, org.liveKey]) {
    t.is(errorCode(await api('DELETE', `/reviews/${id}`, key)), 'review_not_found');
  }
  t.is((await api('GET', `/reviews/${id}`, org.sandboxKey)).status, 200);
  // Its own mode's key deletes it.
  t.is((await api('DELETE', `/reviews/${id}`, org.sandboxKey)).status, 204);
  t.deepEqual(await rowsLeft(id), {});
});

/** Analyses the analysis worker has ended as cancelled so far (its duration histogram's count). */
async function cancelledAnalyses(): Promise<number> {
  const metrics = await scrape(`${stack.opsUrls.analysis}/metrics`);
  return total(metrics, 'loan_review_analysis_duration_seconds_count', { outcome: 'cancelled' });
}

test('a review deleted mid-analysis: the analysis stops first, documents sent meanwhile are refused, and nothing of the review is written after', async (t) => {
  t.timeout(600_000);
  const org = await newOrganization();
  const cancelledBefore = await cancelledAnalyses();
  // Long enough that its analysis is still reading when the deletion's cancellation reaches it.
  const created = await api('POST', '/reviews', org.liveKey, {
    form: form([{ name: 'cd-with-exhibits.pdf', data: await longPdf('Closing Disclosure', 1_500) }]),
  });
  t.is(created.status, 201, created.text);
  const { review_id: id } = ReviewSchema.parse(created.body);
  await waitForInternalState(id, 'analysing', 60_000);
  await analysisRunning(id);
  const asked = Date.now();
  const deleting = api('DELETE', `/reviews/${id}`, org.liveKey);
  // Documents sent once the deletion has asked the analysis to stop (and waits for it): refused as the
  // review's, never kept.
  await cancelRequested(id, deleting);
  const added = await api('POST', `/reviews/${id}/documents`, org.liveKey, {
    form: form([{ name: 'le.pdf', data: await pdf('Loan Estimate') }]),
  });
  t.is(errorCode(added), 'review_not_found', added.text);
  const deleted = await deleting;
  t.is(deleted.status, 204, deleted.text);
  t.log(`the deletion answered ${((Date.now() - asked) / 1000).toFixed(1)} s after it was sent`);
  // The analysis stopped at the pages it was reading, rather than reading the rest for nothing.
  t.is(await cancelledAnalyses(), cancelledBefore + 1, 'the analysis under way ended cancelled');
  t.deepEqual(await rowsLeft(id), {});
  t.deepEqual(await objectsOf(id), []);
  // Nothing lands later: no release, no report, no event, no slot held.
  await new Promise((r) => setTimeout(r, 3_000));
  t.deepEqual(await rowsLeft(id), {});
  t.deepEqual(await objectsOf(id), []);
  t.false(await historiesLeft(t, id));
});

/** Makes a review look as if it came to rest `days` ago (its last change), as a retention counts. */
async function atRestSince(reviewId: string, days: number): Promise<void> {
  await db()`update reviews set updated_at = now() - make_interval(days => ${days}) where id = ${reviewId}`;
}

/** Runs the retention's sweep now, as its schedule does each hour, until `done` holds (a sweep may be running). */
async function sweepUntil(done: () => Promise<boolean>): Promise<boolean> {
  const schedule = (await temporalClient()).schedule.getHandle(retentionScheduleId(config.temporal.taskQueue));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    await schedule.trigger();
    const next = Date.now() + 15_000;
    while (Date.now() < next) {
      if (await done()) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return false;
}

test("an organization's retention deletes its reviews at rest that long, live and sandbox; newer ones and other organizations' stay", async (t) => {
  t.timeout(600_000);
  const org = await newOrganization({ retentionDays: 30 });
  const keeping = await newOrganization();
  const make = async (key: string, referenceId: string) => {
    const created = await api('POST', '/reviews', key, {
      form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }], { reference_id: referenceId }),
    });
    t.is(created.status, 201, created.text);
    const { review_id: id } = ReviewSchema.parse(created.body);
    await waitForReview(key, id, (r) => r.status === 'completed', 120_000);
    return id;
  };
  const expiredLive = await make(org.liveKey, 'RET-OLD');
  const expiredSandbox = await make(org.sandboxKey, 'RET-OLD-SANDBOX');
  const recent = await make(org.liveKey, 'RET-NEW');
  const otherOrg = await make(keeping.liveKey, 'RET-OTHER');
  const objects = await objectsOf(expiredLive);
  t.true(objects.length >= 2, `a document and a report PDF: ${objects.join(', ')}`);
  await atRestSince(expiredLive, 31);
  await atRestSince(expiredSandbox, 31);
  await atRestSince(recent, 29);
  await atRestSince(otherOrg, 400);

  const schedule = await (await temporalClient()).schedule
    .getHandle(retentionScheduleId(config.temporal.taskQueue))
    .describe();
  t.like(schedule.spec.intervals?.[0], { every: 3_600_000 });
  t.like(schedule.action, { workflowType: 'retentionWorkflow', taskQueue: config.temporal.taskQueue });

  const gone = async (id: string) => (await rowsLeft(id)).reviews === undefined;
  t.true(await sweepUntil(async () => (await gone(expiredLive)) && (await gone(expiredSandbox))), 'deleted');

  t.deepEqual(await rowsLeft(expiredLive), {});
  t.deepEqual(await rowsLeft(expiredSandbox), {});
  for (const key of objects) t.false(await objectExists(storage, key), `${key} is gone`);
  t.deepEqual(await objectsOf(expiredLive), []);
  const audits = await db()<{ review_id: string; requested_by: string; sandbox: boolean }[]>`
    select review_id, requested_by, sandbox from review_deletions
     where review_id in ${db()([expiredLive, expiredSandbox])} order by sandbox`;
  t.deepEqual(
    [...audits],
    [
      { review_id: expiredLive, requested_by: 'retention:30d', sandbox: false },
      { review_id: expiredSandbox, requested_by: 'retention:30d', sandbox: true },
    ],
  );
  t.is(errorCode(await api('GET', `/reviews/${expiredLive}`, org.liveKey)), 'review_not_found');
  t.is(errorCode(await api('GET', `/reviews/${expiredSandbox}`, org.sandboxKey)), 'review_not_found');
  t.false(await historiesLeft(t, expiredLive), 'no workflow history of it is left');

  t.is((await api('GET', `/reviews/${recent}`, org.liveKey)).status, 200, 'at rest 29 of 30 days: kept');
  t.is((await api('GET', `/reviews/${otherOrg}`, keeping.liveKey)).status, 200, 'no retention: kept');
});

test("a deletion whose asker stopped once the review's workflow took it (a retention's attempt cut short) still removes the review's histories, by the workflow the run left; the retry answers deleted", async (t) => {
  t.timeout(600_000);
  const org = await newOrganization({ retentionDays: 30 });
  const created = await api('POST', '/reviews', org.liveKey, {
    form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }], { reference_id: 'RET-RETRY' }),
  });
  t.is(created.status, 201, created.text);
  const { review_id: id } = ReviewSchema.parse(created.body);
  await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 120_000);
  await atRestSince(id, 31);
  const found = await findReviewRecord(db(), id);
  const client = await temporalClient();
  // At rest in its workflow too, as a review past its retention is: the read model says `completed` a
  // workflow task before the run's own state is `released`, and the run then ends.
  await client.workflow.getHandle(id).result();
  // The attempt cut short: the review deleted through its workflow as the retention asks, and no more.
  await updateReviewRun(() =>
    client.workflow.executeUpdateWithStart(deleteReviewUpdate, {
      args: [{ requestedBy: retentionRequester(30), requestedAt: new Date().toISOString(), onlyAtRest: true }],
      startWorkflowOperation: continuingRun(config.temporal.taskQueue, org.id, found!.record),
    }),
  );
  t.deepEqual(await rowsLeft(id), {});
  await client.workflow.getHandle(id).result();
  t.truthy(await client.workflow.getHandle(id).describe(), 'its histories are there after the run ended');

  // The workflow the deletion started outlives the run, and names no organization or reference of it.
  const backstop = client.workflow.getHandle(historiesDeletionId(id));
  const described = await backstop.describe();
  t.is(described.status.name, 'RUNNING');
  t.is(described.typedSearchAttributes.get(ReferenceIdKey), undefined);
  t.is(described.typedSearchAttributes.get(OrgIdKey), undefined);
  await backstop.result();
  t.false(await historiesLeft(t, id), 'no workflow history of it is left');

  // The retry finds the review gone, by a retention: deleted.
  const deps = { sql: db(), temporal: client, taskQueue: config.temporal.taskQueue };
  t.is(await deleteExpiredReview(deps, id), 'deleted');
  // A review no retention deleted is none of its business.
  t.is(await deleteExpiredReview(deps, randomUUID()), 'kept');
});

test("the retention's deletion is refused by a review not at rest, which stays and completes: documents that arrived since the sweep are never deleted unread", async (t) => {
  t.timeout(600_000);
  const org = await newOrganization({ retentionDays: 1 });
  const created = await api('POST', '/reviews', org.liveKey, {
    form: form([{ name: 'cd-with-exhibits.pdf', data: await longPdf('Closing Disclosure', 150) }]),
  });
  t.is(created.status, 201, created.text);
  const { review_id: id } = ReviewSchema.parse(created.body);
  await waitForInternalState(id, 'analysing', 60_000);
  const found = await findReviewRecord(db(), id);
  const client = await temporalClient();
  const refused = await t.throwsAsync(
    updateReviewRun(() =>
      client.workflow.executeUpdateWithStart(deleteReviewUpdate, {
        args: [{ requestedBy: 'retention:1d', requestedAt: new Date().toISOString(), onlyAtRest: true }],
        startWorkflowOperation: continuingRun(config.temporal.taskQueue, org.id, found!.record),
      }),
    ),
    { instanceOf: WorkflowUpdateFailedError },
  );
  t.like(refused?.cause, { type: NOT_AT_REST });
  await waitForReview(org.liveKey, id, (r) => r.status === 'completed', 300_000);
  t.is((await api('GET', `/reviews/${id}/report`, org.liveKey)).status, 200);
});
