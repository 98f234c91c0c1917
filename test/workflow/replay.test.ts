// Replays the committed histories of real review-workflow runs (test/histories/, recorded with
// `npm run histories:record`) against today's workflow code, with one bundle: a change that would break
// a running review's replay fails here (docs/development.md says when to record them again instead).
import test from 'ava';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { replayHistories } from '../../scripts/temporal/replay-histories.js';

// Only problems from the replay worker; its lifecycle lines would drown the suite's output.
Runtime.install({ logger: new DefaultLogger('WARN') });

const folder = new URL('../histories/', import.meta.url);
const REQUIRED = [
  'amendment',
  'create-awaiting-add-completed',
  'create-completed',
  'create-refused',
  'create-source-url',
  'deletion-after-release',
  'deletion-mid-analysis',
  'failure',
  'history-deletion',
  'retention-sweep',
  'sandbox',
];

test('every recorded history replays against the current workflow code', async (t) => {
  const names = (await readdir(folder))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
  for (const required of REQUIRED) t.true(names.includes(required), `history ${required} is recorded`);
  const results = await replayHistories(names.map((n) => new URL(`${n}.json`, folder)));
  t.deepEqual(
    Object.fromEntries(
      [...results].map(([file, result]) => [
        file.pathname.slice(folder.pathname.length).replace(/\.json$/, ''),
        result,
      ]),
    ),
    Object.fromEntries(names.map((n) => [n, 'ok'])),
  );
});

test(
  "a history whose first activity today's code would not schedule fails to replay with a " + 'determinism error',
  async (t) => {
    // The history of a run made by code that scheduled another activity first: what replaying after an
    // unpatched change to the workflow's first step looks like.
    const history = JSON.parse(await readFile(new URL('create-completed.json', folder), 'utf8')) as {
      events: Record<string, unknown>[];
    };
    const scheduled = history.events.find((e) => e.activityTaskScheduledEventAttributes !== undefined)!;
    const attributes = scheduled.activityTaskScheduledEventAttributes as { activityType: { name: string } };
    attributes.activityType.name = `${attributes.activityType.name}Renamed`;
    const file = pathToFileURL(join(await mkdtemp(join(tmpdir(), 'replay-')), 'unpatched.json'));
    await writeFile(file, JSON.stringify(history));
    const [result] = [...(await replayHistories([file])).values()];
    t.regex(result!, /^DeterminismViolationError: /);
  },
);

interface HistoryJson {
  events: Record<
    string,
    | {
        input?: { payloads?: { data: string }[] };
        startToFireTimeout?: string;
        activityType?: { name: string };
        markerName?: string;
        details?: Record<string, { payloads?: { data: string }[] }>;
      }
    | undefined
  >[];
}
const historyOf = async (name: string) =>
  JSON.parse(await readFile(new URL(`${name}.json`, folder), 'utf8')) as HistoryJson;
const lastEventType = (h: HistoryJson) => Object.keys(h.events.at(-1)!).find((k) => k.endsWith('EventAttributes'));
/** The patches a history's markers name, in order. */
const patchMarkers = (h: HistoryJson) =>
  h.events.flatMap((e) => {
    const payload = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return payload ? [(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { id: string }).id] : [];
  });
/** The activities a history scheduled, by name. */
const activityTasks = (h: HistoryJson) =>
  h.events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
/** The local activities a history holds the results of, by name. */
const localActivities = (h: HistoryJson) =>
  h.events.flatMap((e) => {
    const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
    if (e.markerRecordedEventAttributes?.markerName !== 'core_local_activity' || !data) return [];
    return [(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { activity_type: string }).activity_type];
  });

test(
  'the recorded paths are the ones named: every create is an update that starts its run and one ' +
    'createReview activity on the ingest queue (multipart, source URL, sandbox, refused), no activity is ' +
    'local, runs end complete, the amendment continues a completed run and is rendered again when approved, ' +
    'a deletion is an update that purges the review last (mid-analysis, or in a run it started once released) ' +
    'and leaves a workflow of its own to delete its histories a minute later, and the retention sweep deletes ' +
    'each expired review by an activity',
  async (t) => {
    for (const name of REQUIRED) {
      const history = await historyOf(name);
      t.is(lastEventType(history), 'workflowExecutionCompletedEventAttributes', name);
      // One version of the workflow: no run asks which code to take.
      t.deepEqual(patchMarkers(history), [], name);
    }
    for (const name of ['create-completed', 'create-source-url', 'failure', 'sandbox', 'create-refused']) {
      const history = await historyOf(name);
      // A first run: no review existed before its create.
      t.is(startInput(history).resumed, undefined, name);
      t.deepEqual(updates(history), ['createReview'], name);
      const ingest = scheduled(history).filter((a) => a.name === 'createReview');
      t.is(ingest.length, 1, name);
      t.regex(ingest[0]!.taskQueue, /-ingest$/, name);
      t.false(
        scheduled(history).some((a) => a.name === 'ingestSubmission'),
        name,
      );
    }
    for (const name of ['create-completed', 'create-source-url', 'failure'])
      t.true(activityTasks(await historyOf(name)).includes('analyseToDraft'), name);
    // A refused create schedules nothing after its ingest: no review, no webhook.
    t.deepEqual(activityTasks(await historyOf('create-refused')), ['createReview']);
    t.is(activityTasks(await historyOf('sandbox')).filter((a) => a === 'releaseSandboxReport').length, 1);
    // Added documents are an update too: ingested on the ingest queue, then recorded.
    const added = await historyOf('create-awaiting-add-completed');
    t.deepEqual(updates(added), ['createReview', 'addDocuments']);
    t.regex(scheduled(added).find((a) => a.name === 'ingestSubmission')!.taskQueue, /-ingest$/);
    t.true(activityTasks(await historyOf('amendment')).includes('beginPass'));
    // No activity is local: every result is an event, handed over alike when a run executes and on replay.
    for (const name of REQUIRED) t.deepEqual(localActivities(await historyOf(name)), [], name);
    // Approved at the gate, the amendment is rendered again at approval.
    const amendment = await historyOf('amendment');
    t.is(activityTasks(amendment).filter((a) => a === 'renderRelease').length, 2);
    // Documents added after the first run completed started the amendment's run, resumed from the read model.
    t.deepEqual(startInput(amendment).resumed, { internalState: 'released' });
    // A deletion: the update, the analysis under way stopped first, the purge the last activity.
    const midAnalysis = await historyOf('deletion-mid-analysis');
    t.deepEqual(updates(midAnalysis), ['createReview', 'deleteReview']);
    t.is(activityTasks(midAnalysis).at(-1), 'purgeReview');
    t.false(activityTasks(midAnalysis).includes('renderRelease'), 'nothing rendered after the deletion');
    const afterRelease = await historyOf('deletion-after-release');
    t.deepEqual(startInput(afterRelease).resumed, { internalState: 'released' });
    t.deepEqual(updates(afterRelease), ['deleteReview']);
    t.deepEqual(activityTasks(afterRelease), ['purgeReview']);
    // After the purge, each starts the workflow that deletes its histories, and leaves it running when it ends.
    for (const deletion of [midAnalysis, afterRelease]) {
      const purged = deletion.events.findIndex(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'purgeReview',
      );
      const children = childrenStarted(deletion);
      t.deepEqual(
        children.map((c) => c.type),
        ['reviewHistoriesDeletion'],
      );
      t.true(children[0]!.eventIndex > purged);
      t.is(children[0]!.parentClosePolicy, 'PARENT_CLOSE_POLICY_ABANDON');
    }
    const historyDeletion = await historyOf('history-deletion');
    t.deepEqual(timers(historyDeletion), ['60s']);
    t.deepEqual(activityTasks(historyDeletion), ['deleteReviewHistories']);
    t.deepEqual(activityTasks(await historyOf('retention-sweep')), [
      'retentionPolicies',
      'expiredReviews',
      'deleteExpiredReview',
    ]);
  },
);
/** The child workflows a history started: type, parent-close policy and where the command is. */
const childrenStarted = (h: HistoryJson) =>
  h.events.flatMap((e, eventIndex) => {
    const a = e.startChildWorkflowExecutionInitiatedEventAttributes as
      | { workflowType?: { name: string }; parentClosePolicy?: string }
      | undefined;
    return a ? [{ type: a.workflowType?.name, parentClosePolicy: a.parentClosePolicy, eventIndex }] : [];
  });
/** The timers a history started, by their time to fire. */
const timers = (h: HistoryJson) => h.events.flatMap((e) => e.timerStartedEventAttributes?.startToFireTimeout ?? []);
/** The updates a history accepted, by name, in order. */
const updates = (h: HistoryJson) =>
  h.events.flatMap((e) => {
    const accepted = e.workflowExecutionUpdateAcceptedEventAttributes as
      | { acceptedRequest?: { input?: { name?: string } } }
      | undefined;
    return accepted?.acceptedRequest?.input?.name ?? [];
  });
/** The activities a history scheduled, with the task queue of each. */
const scheduled = (h: HistoryJson) =>
  h.events.flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes as
      | { activityType?: { name: string }; taskQueue?: { name: string } }
      | undefined;
    return a?.activityType ? [{ name: a.activityType.name, taskQueue: a.taskQueue?.name ?? '' }] : [];
  });
/** The workflow input its first event carries. */
const startInput = (h: HistoryJson) => {
  const started = h.events[0]!.workflowExecutionStartedEventAttributes!;
  return JSON.parse(Buffer.from(started.input!.payloads![0]!.data, 'base64').toString('utf8')) as { resumed?: unknown };
};
