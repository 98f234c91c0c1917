// The review's state has one owner: ReviewState's transitions are the only writers of its fields, and
// the workflow's main function reads on one screen.
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { ReviewState } from '../../../workflows/review-state.js';

const folder = new URL('../../../workflows/', import.meta.url);
/** An assignment to a field of something named state (`state.releases += 1`, `this.state.gate = …`). */
const ASSIGNS_STATE = /\bstate\.\w+\s*(?:[-+*/]|\?\?|\|\||&&)?=(?!=)/;

test("no workflow module but review-state.ts assigns a field of the review's state", async (t) => {
  const files = (await readdir(folder)).filter((f) => f.endsWith('.ts') && f !== 'review-state.ts');
  t.true(files.length > 5);
  const offending: string[] = [];
  for (const file of files) {
    const lines = (await readFile(new URL(file, folder), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (ASSIGNS_STATE.test(line)) offending.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  t.deepEqual(offending, []);
  // The pattern finds what it is meant to.
  t.true(
    ASSIGNS_STATE.test('    state.releases += 1;') &&
      ASSIGNS_STATE.test('state.gate = null') &&
      !ASSIGNS_STATE.test('if (state.gate === null)'),
  );
});

test('the main workflow function fits on a screen (at most 60 lines)', async (t) => {
  const source = await readFile(new URL('review.ts', folder), 'utf8');
  const start = source.indexOf('export async function reviewWorkflow(');
  t.true(start >= 0);
  const lines = source.slice(start).split('\n');
  const length = lines.indexOf('}') + 1;
  t.true(length > 10 && length <= 60, `${length} lines`);
});

test(
  'a release leaves the gate approved only when approved: the approval is used up and the hold ' +
    'lifted; otherwise it is stale',
  (t) => {
    const review = new ReviewState({
      reviewId: 'r',
      organizationId: 'o',
      sandbox: false,
      resumed: { internalState: 'analysing' },
    });
    review.setHold(true);
    review.waitAtGate({ releaseId: 'rel', reason: 'an operator asked to hold it' });
    t.is(review.leaveGate(), 'stale');
    t.true(review.now.holdRequested, 'a stale release keeps the hold');
    review.waitAtGate({ releaseId: 'rel', reason: 'an operator asked to hold it' });
    review.approve();
    t.is(review.leaveGate(), 'approved');
    t.like(review.now, { gate: null, approved: false, holdRequested: false });
  },
);

test(
  'a resumed run analyses again unless its review is released or failed; a live create is ' +
    'analysed next, a sandbox one not',
  (t) => {
    for (const [internalState, pending] of [
      ['analysing', true],
      ['awaiting_documents', true],
      ['released', false],
      ['failed', false],
    ] as const) {
      const review = new ReviewState({
        reviewId: 'r',
        organizationId: 'o',
        sandbox: false,
        resumed: { internalState },
      });
      review.resumed(internalState === 'released' ? 2 : 0);
      t.is(review.now.reassessmentPending, pending, internalState);
    }
    for (const sandbox of [false, true]) {
      const review = new ReviewState({ reviewId: 'r', organizationId: 'o', sandbox });
      t.false(review.now.created);
      review.created();
      t.true(review.now.created);
      t.is(review.now.reassessmentPending, !sandbox);
    }
  },
);
