// A PDF that names the marker is parsed in a thread of its own under a budget: one that takes pdf-lib
// longer than the budget is an ordinary document, and the worker's event loop turns meanwhile.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import {
  configureMarkerParsing,
  MAX_PARSE_THREADS,
  parseThreadCounts,
  parseThreadsRunning,
} from '../../../src/working-document/marker-parsing.js';
import { inspectWorkingDocument, readWorkingDocumentFields } from '../../../src/working-document/marker.js';
import { workingDocument } from '../../support/fixtures.js';

const secret = 'a-server-secret-of-at-least-32-characters';

/** 4 MB naming the marker, one array of two million numbers in it: pdf-lib takes seconds over it. */
const slow = Buffer.from(
  `%PDF-1.7\n1 0 obj <</Type /Catalog /LoanReviewWorkingDocument (wd1.forged)>> endobj\n2 0 obj ` +
    `[${'0 '.repeat(2_000_000)}] endobj\ntrailer <</Root 1 0 R /Info 1 0 R>>\n%%EOF\n`,
);

test.serial(
  'a parse that overruns its budget makes the PDF an ordinary document, and the event loop turns meanwhile',
  async (t) => {
    const previous = configureMarkerParsing({ timeoutMs: 300 });
    let turns = 0;
    const ticker = setInterval(() => turns++, 10);
    try {
      t.is(await inspectWorkingDocument(slow, secret), null);
      // pdf-lib on this thread would have held the loop for the whole parse: not one turn.
      t.true(turns >= 5, `${turns} turns of the event loop`);
      // The same parse, where its failure is said: it was stopped at its budget.
      await t.throwsAsync(readWorkingDocumentFields(slow), {
        message: /fields could not be read: the parse failed: it took longer than 300 ms/,
      });
    } finally {
      clearInterval(ticker);
      configureMarkerParsing(previous);
    }
  },
);

test.serial('within the budget the thread answers as the parse would', async (t) => {
  const mark = { reviewId: randomUUID(), releaseId: randomUUID() };
  const bytes = await workingDocument({ ...mark, secret, findings: ['APR-001'] });
  t.deepEqual(await inspectWorkingDocument(bytes, secret), { ...mark, fieldCount: 3 });
  t.deepEqual([...(await readWorkingDocumentFields(bytes)).keys()].sort(), [
    'finding.APR-001.comment',
    'finding.APR-001.cure_document',
    'finding.APR-001.decision',
  ]);
});

test.serial('parses come from one bounded pool: six crafted files at once run two threads at a time', async (t) => {
  const previous = configureMarkerParsing({ timeoutMs: 300 });
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, parseThreadsRunning())), 5);
  try {
    const answers = await Promise.all(Array.from({ length: 6 }, () => inspectWorkingDocument(slow, secret)));
    t.deepEqual(answers, Array(6).fill(null));
    t.is(most, MAX_PARSE_THREADS);
    t.is(parseThreadsRunning(), 0);
  } finally {
    clearInterval(sampler);
    configureMarkerParsing(previous);
  }
});

test.serial('a thread that answered takes the next parse, and ends once idle for its idle time', async (t) => {
  const previous = configureMarkerParsing({ idleMs: 400 });
  try {
    const bytes = await workingDocument({
      reviewId: randomUUID(),
      releaseId: randomUUID(),
      secret,
      findings: ['APR-001'],
    });
    const before = parseThreadCounts();
    t.is(before.idle, 0);
    await inspectWorkingDocument(bytes, secret);
    t.deepEqual(parseThreadCounts(), { started: before.started + 1, idle: 1 });
    await readWorkingDocumentFields(bytes);
    t.deepEqual(parseThreadCounts(), { started: before.started + 1, idle: 1 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    t.deepEqual(parseThreadCounts(), { started: before.started + 1, idle: 0 });
    await inspectWorkingDocument(bytes, secret);
    t.deepEqual(parseThreadCounts(), { started: before.started + 2, idle: 1 });
  } finally {
    configureMarkerParsing(previous);
  }
});

test.serial('a thread stopped at its budget is not used again: the next parse gets a fresh one', async (t) => {
  const previous = configureMarkerParsing({ timeoutMs: 300 });
  try {
    const before = parseThreadCounts();
    t.is(await inspectWorkingDocument(slow, secret), null);
    t.deepEqual(parseThreadCounts(), { started: before.started + 1, idle: 0 });
    configureMarkerParsing(previous);
    const mark = { reviewId: randomUUID(), releaseId: randomUUID() };
    const bytes = await workingDocument({ ...mark, secret, findings: ['APR-001'] });
    t.deepEqual(await inspectWorkingDocument(bytes, secret), { ...mark, fieldCount: 3 });
    t.deepEqual(parseThreadCounts(), { started: before.started + 2, idle: 1 });
  } finally {
    configureMarkerParsing(previous);
  }
});
