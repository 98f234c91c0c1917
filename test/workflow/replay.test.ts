// Replays the committed histories of real review-workflow runs (test/histories/, recorded with
// `npm run histories:record`) against today's workflow code, with one bundle: a change that would break
// a running review (a non-deterministic change without `patched()`) fails here.
import test from 'ava';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { replayHistories } from '../../scripts/temporal/replay-histories.js';
import { DECIDED_AT_START_PATCH, ONE_LOCAL_ACTIVITY_PATCH } from '../../workflows/patches.js';

// Only problems from the replay worker; its lifecycle lines would drown the suite's output.
Runtime.install({ logger: new DefaultLogger('WARN') });

const folder = new URL('../histories/', import.meta.url);
const REQUIRED = ['amendment', 'create-awaiting-add-completed', 'create-completed', 'failure', 'sandbox'];
/** The paths RELEASED_RUN_COMPLETES_PATCH changed: their histories from before it are kept. */
const BEFORE_RELEASED_RUN_COMPLETES = ['amendment', 'create-awaiting-add-completed', 'create-completed', 'sandbox'];
/** DECIDED_AT_START_PATCH concerns every path: each one's history from before it is kept. */
const BEFORE_DECIDED_AT_START = REQUIRED;
/** So does ONE_LOCAL_ACTIVITY_PATCH. */
const BEFORE_ONE_LOCAL_ACTIVITY = REQUIRED;

interface HistoryJson {
  events: Record<
    string,
    { input?: { payloads?: { data: string }[] }; startToFireTimeout?: string; activityType?: { name: string }; details?: Record<string, { payloads?: { data: string }[] }> } | undefined
  >[];
}
const historyOf = async (name: string) => JSON.parse(await readFile(new URL(`${name}.json`, folder), 'utf8')) as HistoryJson;
const lastEventType = (h: HistoryJson) => Object.keys(h.events.at(-1)!).find((k) => k.endsWith('EventAttributes'));
/** The patches a history's markers name, in order. */
const patchMarkers = (h: HistoryJson) =>
  h.events.flatMap((e) => {
    const payload = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return payload ? [(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { id: string }).id] : [];
  });
/** The 30-day idle timers a history started: how a released run waited before the patch. */
const idleTimers = (h: HistoryJson) =>
  h.events.filter((e) => e.timerStartedEventAttributes?.startToFireTimeout === `${30 * 24 * 3600}s`).length;

test('every recorded history, of today\'s code and of the code before each patch, replays against the current workflow code', async (t) => {
  // test/histories/*.json: today's paths; test/histories/<before-patch>/*.json: the same paths as earlier
  // code took them, which running reviews may still be on.
  const names = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  for (const required of REQUIRED) {
    t.true(names.includes(required), `history ${required} is recorded`);
    t.true(names.includes(`before-lean-history/${required}`), `history ${required} of the code before lean-history is kept`);
  }
  for (const required of BEFORE_DECIDED_AT_START) {
    t.true(names.includes(`before-changes-decided-at-start/${required}`), `history ${required} of the code before changes-decided-at-start is kept`);
  }
  for (const required of BEFORE_ONE_LOCAL_ACTIVITY) {
    t.true(names.includes(`before-one-local-activity-at-a-time/${required}`), `history ${required} of the code before one-local-activity-at-a-time is kept`);
  }
  for (const required of BEFORE_RELEASED_RUN_COMPLETES) {
    t.true(names.includes(`before-released-run-completes/${required}`), `history ${required} of the code before released-run-completes is kept`);
  }
  t.true(names.includes('before-release-time-at-approval/amendment'), 'the amendment of the code before release-time-at-approval is kept');
  const results = await replayHistories(names.map((n) => new URL(`${n}.json`, folder)));
  t.deepEqual(
    Object.fromEntries([...results].map(([file, result]) => [file.pathname.slice(folder.pathname.length).replace(/\.json$/, ''), result])),
    Object.fromEntries(names.map((n) => [n, 'ok'])),
  );
});

test('a history whose first activity today\'s code would not schedule fails to replay with a determinism error', async (t) => {
  // The history of a run made by code that scheduled another activity first: what replaying after an
  // unpatched change to the workflow's first step looks like.
  const history = JSON.parse(await readFile(new URL('create-completed.json', folder), 'utf8')) as { events: Record<string, unknown>[] };
  const scheduled = history.events.find((e) => e.activityTaskScheduledEventAttributes !== undefined)!;
  const attributes = scheduled.activityTaskScheduledEventAttributes as { activityType: { name: string } };
  attributes.activityType.name = `${attributes.activityType.name}Renamed`;
  const file = pathToFileURL(join(await mkdtemp(join(tmpdir(), 'replay-')), 'unpatched.json'));
  await writeFile(file, JSON.stringify(history));
  const [result] = [...(await replayHistories([file])).values()];
  t.regex(result!, /^DeterminismViolationError: /);
});

test('the recorded paths are the ones named: released runs complete, the amendment is a run that continues a completed one, rendered again when approved', async (t) => {
  // Today's runs end once released and announced, with no idle timer; before the patch they were still
  // open, waiting out a 30-day one.
  for (const name of REQUIRED) {
    const history = await historyOf(name);
    t.is(lastEventType(history), 'workflowExecutionCompletedEventAttributes', name);
    t.is(idleTimers(history), 0, name);
    // A run of today's code decides every change at its start: its patch markers come first, and only there.
    t.deepEqual(patchMarkers(history), [DECIDED_AT_START_PATCH, ONE_LOCAL_ACTIVITY_PATCH], name);
    t.deepEqual(patchMarkers(await historyOf(`before-one-local-activity-at-a-time/${name}`)), [DECIDED_AT_START_PATCH], name);
    t.false(patchMarkers(await historyOf(`before-changes-decided-at-start/${name}`)).includes(DECIDED_AT_START_PATCH), name);
  }
  for (const name of BEFORE_RELEASED_RUN_COMPLETES) {
    const history = await historyOf(`before-released-run-completes/${name}`);
    t.not(lastEventType(history), 'workflowExecutionCompletedEventAttributes', name);
    t.true(idleTimers(history) > 0, name);
  }
  // Approved at the gate, the amendment is rendered again at approval (before release-time-at-approval, once).
  const renders = (h: HistoryJson) =>
    h.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'renderRelease').length;
  t.is(renders(await historyOf('amendment')), 2);
  t.is(renders(await historyOf('before-release-time-at-approval/amendment')), 1);
  // Documents added after the first run completed started the amendment's run, resumed from the read model.
  const started = (await historyOf('amendment')).events[0]!.workflowExecutionStartedEventAttributes!;
  const input = JSON.parse(Buffer.from(started.input!.payloads![0]!.data, 'base64').toString('utf8')) as { resumed?: unknown };
  t.deepEqual(input.resumed, { internalState: 'released' });
});
