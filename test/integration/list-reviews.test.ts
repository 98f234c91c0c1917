// GET /v1/reviews: newest first by created_at then id, limit 1..100 (default 20), opaque signed cursors,
// filters by status, reference_id and creation time that combine with each other and with the cursor,
// stable under concurrent inserts, and only the caller's organization.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { insertReview } from '../../src/db/reviews.js';
import { ReviewSchema, type ReviewStatus } from '../../src/reviews/review.js';
import { call, createBody, errorCode, errorMessage, errorParam } from '../support/http.js';
import { closeShared, db, newOrganization, stack } from '../support/stack.js';

test.after.always(closeShared);

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(stack.apiUrl, method, path, opts);

/** Rows straight into the read model, with chosen creation times (ties included), statuses and references. */
async function seed(
  organizationId: string,
  createdAt: Date[],
  each: (i: number) => { status?: ReviewStatus; referenceId?: string } = () => ({}),
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, at] of createdAt.entries()) {
    const id = randomUUID();
    const { status = 'processing', referenceId = null } = each(i);
    await insertReview(db(), {
      id,
      organizationId,
      sandbox: false,
      status,
      internalState: 'ingesting',
      reviewType: 'mortgage_v1',
      label: null,
      referenceId,
      metadata: null,
      createdAt: at,
    });
    ids.push(id);
  }
  return ids;
}

interface Page {
  data: unknown[];
  next_cursor: string | null;
}

async function pageThrough(key: string, limit: number, between?: () => Promise<void>, filters = ''): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const at = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api('GET', `/reviews?limit=${limit}${filters}${at}`, { key });
    if (res.status !== 200) throw new Error(`page failed: ${res.text}`);
    const page = res.body as Page;
    seen.push(...page.data.map((r) => ReviewSchema.parse(r).review_id));
    cursor = page.next_cursor;
    await between?.();
  } while (cursor);
  return seen;
}

test('reviews are listed newest first, ties broken by id descending, with the Review fields only', async (t) => {
  const org = await newOrganization();
  const base = Date.now() - 60_000;
  const ids = await seed(org.id, [new Date(base), new Date(base + 1000), new Date(base + 1000), new Date(base + 2000)]);
  const res = await api('GET', '/reviews', { key: org.liveKey });
  t.is(res.status, 200);
  const page = res.body as Page;
  t.is(page.next_cursor, null);
  const tie = [ids[1]!, ids[2]!].sort().reverse();
  t.deepEqual(
    page.data.map((r) => ReviewSchema.parse(r).review_id),
    [ids[3], ...tie, ids[0]],
  );
});

test('a review created through the API appears in the list', async (t) => {
  const org = await newOrganization();
  const created = ReviewSchema.parse((await api('POST', '/reviews', { key: org.liveKey, json: createBody() })).body);
  const page = (await api('GET', '/reviews', { key: org.liveKey })).body as Page;
  t.is(page.data.length, 1);
  const listed = ReviewSchema.parse(page.data[0]);
  // The review as created; its workflow may have moved on meanwhile (updated_at, and on a quick worker
  // its status), which the list shows as it now is.
  const { updated_at: createdUpdatedAt, status: _status, report_available: _report, ...fixed } = created;
  t.like(listed, fixed);
  t.true(Date.parse(listed.updated_at) >= Date.parse(createdUpdatedAt));
});

test('limit defaults to 20 and pages cover everything exactly once', async (t) => {
  const org = await newOrganization();
  const base = Date.now() - 3_600_000;
  const ids = await seed(
    org.id,
    Array.from({ length: 23 }, (_, i) => new Date(base + Math.floor(i / 3) * 1000)),
  );
  const first = (await api('GET', '/reviews', { key: org.liveKey })).body as Page;
  t.is(first.data.length, 20);
  t.truthy(first.next_cursor);
  const all = await pageThrough(org.liveKey, 7);
  t.is(all.length, 23);
  t.deepEqual([...all].sort(), [...ids].sort());
});

test('reviews created while paging neither duplicate nor hide the ones being paged', async (t) => {
  const org = await newOrganization();
  const base = Date.now() - 3_600_000;
  const ids = await seed(
    org.id,
    Array.from({ length: 9 }, (_, i) => new Date(base + i * 1000)),
  );
  const seen = await pageThrough(org.liveKey, 2, async () => {
    await seed(org.id, [new Date()]);
  });
  t.is(new Set(seen).size, seen.length, 'no duplicates');
  for (const id of ids) t.true(seen.includes(id), 'no gaps');
});

test('only the organization’s own reviews are listed; sandbox ones carry sandbox: true', async (t) => {
  const org = await newOrganization();
  const other = await newOrganization();
  await seed(other.id, [new Date()]);
  const id = randomUUID();
  await insertReview(db(), {
    id,
    organizationId: org.id,
    sandbox: true,
    status: 'completed',
    internalState: 'released',
    reviewType: 'mortgage_v1',
    label: null,
    referenceId: null,
    metadata: null,
    createdAt: new Date(),
  });
  const page = (await api('GET', '/reviews', { key: org.liveKey })).body as Page;
  t.deepEqual(
    page.data.map((r) => ReviewSchema.parse(r)).map((r) => [r.review_id, r.sandbox]),
    [[id, true]],
  );
});

test('limit outside 1..100 and a malformed, altered or foreign cursor are 422 invalid_request', async (t) => {
  const org = await newOrganization();
  const other = await newOrganization();
  await seed(org.id, [new Date(Date.now() - 2000), new Date(Date.now() - 1000)]);
  await seed(other.id, [new Date(Date.now() - 2000), new Date(Date.now() - 1000)]);
  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'cursor=abc', 'cursor=']) {
    const res = await api('GET', `/reviews?${q}`, { key: org.liveKey });
    t.is(res.status, 422, q);
    t.is(errorCode(res), 'invalid_request', q);
  }
  t.is(((await api('GET', '/reviews?limit=100', { key: org.liveKey })).body as Page).data.length, 2);
  const cursor = ((await api('GET', '/reviews?limit=1', { key: other.liveKey })).body as Page).next_cursor!;
  const foreign = await api('GET', `/reviews?cursor=${encodeURIComponent(cursor)}`, { key: org.liveKey });
  t.is(foreign.status, 422);
  t.is(errorParam(foreign), 'cursor');
  t.regex((foreign.body as { error: { message: string } }).error.message, /cursor/);
  const altered = await api('GET', `/reviews?cursor=${encodeURIComponent(`x${cursor}`)}`, { key: other.liveKey });
  t.is(errorCode(altered), 'invalid_request');
});

test('status, reference_id, created_after and created_before narrow the list, combine, and page with the cursor', async (t) => {
  const org = await newOrganization();
  const base = Date.now() - 60_000;
  const at = (i: number) => new Date(base + i * 1000);
  const statuses: ReviewStatus[] = ['processing', 'completed', 'failed'];
  const ids = await seed(
    org.id,
    Array.from({ length: 9 }, (_, i) => at(i)),
    (i) => ({ status: statuses[i % 3]!, referenceId: `LN-${i}` }),
  );
  const newestFirst = (is: number[]) => is.sort((a, b) => b - a).map((i) => ids[i]!);
  const list = async (query: string) => {
    const res = await api('GET', `/reviews?limit=100&${query}`, { key: org.liveKey });
    t.is(res.status, 200, `${query}: ${res.text}`);
    return (res.body as Page).data.map((r) => ReviewSchema.parse(r).review_id);
  };
  t.deepEqual(await list('status=completed'), newestFirst([1, 4, 7]));
  t.deepEqual(await list('reference_id=LN-4'), [ids[4]]);
  const iso = (i: number) => encodeURIComponent(at(i).toISOString());
  // Strictly after and strictly before: the bounds themselves are left out.
  t.deepEqual(await list(`created_after=${iso(2)}&created_before=${iso(6)}`), newestFirst([3, 4, 5]));
  t.deepEqual(await list(`created_after=${iso(2)}&created_before=${iso(6)}&status=failed`), newestFirst([5]));
  // An offset other than Z names the same instant.
  const plusTwo = new Date(at(7).getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
  t.deepEqual(await list(`created_after=${encodeURIComponent(plusTwo)}`), newestFirst([8]));
  t.deepEqual(await list('status=queued'), []);
  t.deepEqual(await list('status=completed&reference_id=LN-5'), []);
  // A page at a time, the cursor keeps to the filtered list.
  t.deepEqual(await pageThrough(org.liveKey, 1, undefined, '&status=processing'), newestFirst([0, 3, 6]));
  t.deepEqual(
    await pageThrough(org.liveKey, 2, undefined, `&created_before=${iso(5)}&status=failed`),
    newestFirst([2]),
  );
});

test('a status not among the statuses, or a time without its offset or not a time, is 422 invalid_request naming it in param', async (t) => {
  const org = await newOrganization();
  for (const [param, value] of [
    ['status', 'done'],
    ['created_after', '2026-11-01'],
    ['created_after', '2026-11-01T00:00:00'],
    ['created_before', 'yesterday'],
    ['created_before', '0000-01-01T00:00:00Z'],
    ['created_after', '2026-02-30T00:00:00Z'],
  ] as const) {
    const res = await api('GET', `/reviews?${param}=${encodeURIComponent(value)}`, { key: org.liveKey });
    t.is(res.status, 422, `${param}=${value}`);
    t.is(errorCode(res), 'invalid_request', `${param}=${value}`);
    t.regex(errorMessage(res), new RegExp(param), `${param}=${value}`);
    t.is(errorParam(res), param, `${param}=${value}`);
  }
});
