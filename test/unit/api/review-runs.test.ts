// The order in which an API process starts the runs of the reviews it recorded: creates being recorded
// come first, for a bounded time; a bounded number of starts at once; a start that fails is left pending.
import test from 'ava';
import { ReviewRuns } from '../../../api/review-runs.js';
import type { Sql } from '../../../src/db/client.js';
import type { ReviewRecord } from '../../../src/db/reviews.js';
import { silentLogger } from '../../../src/telemetry/log.js';
import { recordingLogger } from '../../support/recording-logger.js';

/** Postgres as the run starter uses it here: `runStarted`'s update, which answers nothing. */
const sql = (() => Promise.resolve([])) as unknown as Sql;

function record(id: string): ReviewRecord {
  const review = {
    review_id: id,
    status: 'processing',
    review_type: 'mortgage_v1',
    created_at: '',
    updated_at: '',
    document_count: 1,
    label: null,
    reference_id: null,
    report_available: false,
    sandbox: false,
  } as const;
  return { review, internalState: 'ingesting', metadata: null };
}

/** A Temporal whose starts are recorded, and held until released. */
function temporal() {
  const started: string[] = [];
  const held: (() => void)[] = [];
  let fail = false;
  return {
    started,
    inFlight: () => held.length,
    releaseAll: () =>
      held.splice(0).forEach((go) => {
        go();
      }),
    failNext: () => (fail = true),
    workflows: {
      startRecorded: (_org: string, r: ReviewRecord) => {
        started.push(r.review.review_id);
        if (fail) {
          fail = false;
          return Promise.reject(new Error('Temporal did not answer'));
        }
        return new Promise<'started'>((resolve) => held.push(() => resolve('started')));
      },
    },
  };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

test('a run waits while the process records creates, and starts once none is being recorded', async (t) => {
  const fake = temporal();
  const runs = new ReviewRuns(sql, fake.workflows, silentLogger, { deferMs: 60_000, startsAtOnce: 4, maxWaiting: 100 });
  let finish!: () => void;
  const recording = runs.recordingCreate(() => new Promise<void>((r) => (finish = r)));
  runs.startSoon('org', record('a'));
  await tick();
  t.deepEqual(fake.started, [], 'not while a create is being recorded');
  finish();
  await recording;
  await tick();
  t.deepEqual(fake.started, ['a']);
});

test('a run waits for creates being recorded no longer than its deferral', async (t) => {
  const fake = temporal();
  const runs = new ReviewRuns(sql, fake.workflows, silentLogger, { deferMs: 100, startsAtOnce: 4, maxWaiting: 100 });
  void runs.recordingCreate(() => new Promise<void>(() => {}));
  runs.startSoon('org', record('a'));
  await tick(50);
  t.deepEqual(fake.started, []);
  await tick(150);
  t.deepEqual(fake.started, ['a'], 'started though a create is still being recorded');
});

test('no more starts than allowed are in flight at once; the rest go as they finish', async (t) => {
  const fake = temporal();
  const runs = new ReviewRuns(sql, fake.workflows, silentLogger, { deferMs: 0, startsAtOnce: 2, maxWaiting: 100 });
  for (const id of ['a', 'b', 'c', 'd', 'e']) runs.startSoon('org', record(id));
  await tick();
  t.is(fake.inFlight(), 2);
  t.deepEqual(fake.started, ['a', 'b']);
  fake.releaseAll();
  await tick();
  t.deepEqual(fake.started, ['a', 'b', 'c', 'd']);
  fake.releaseAll();
  await tick();
  fake.releaseAll();
  t.deepEqual(fake.started, ['a', 'b', 'c', 'd', 'e']);
});

test(
  'a start Temporal does not take is logged and left pending for the sweep, and does not ' + 'stop the next',
  async (t) => {
    const fake = temporal();
    const log = recordingLogger();
    const lines = log.records;
    const runs = new ReviewRuns(sql, fake.workflows, log, {
      deferMs: 0,
      startsAtOnce: 1,
      maxWaiting: 100,
    });
    fake.failNext();
    runs.startSoon('org', record('a'));
    runs.startSoon('org', record('b'));
    await tick();
    t.deepEqual(fake.started, ['a', 'b']);
    t.is(lines.length, 1);
    t.is(
      lines[0]!.message,
      'its workflow run could not be started yet (Temporal did not answer); a later sweep starts it',
    );
    t.is(lines[0]!.fields.review_id, 'a');
    fake.releaseAll();
  },
);

test('past the most it keeps waiting, a run is left to the sweep rather than held in memory', async (t) => {
  const fake = temporal();
  const runs = new ReviewRuns(sql, fake.workflows, silentLogger, { deferMs: 60_000, startsAtOnce: 4, maxWaiting: 2 });
  let finish!: () => void;
  const recording = runs.recordingCreate(() => new Promise<void>((r) => (finish = r)));
  for (const id of ['a', 'b', 'c', 'd']) runs.startSoon('org', record(id));
  finish();
  await recording;
  await tick();
  t.deepEqual(fake.started, ['a', 'b'], 'c and d stay pending in Postgres for the sweep');
  fake.releaseAll();
});
