// Judging a working document's decisions (decisions.md, "Dispositions", "Disposition effects"), as pure
// logic: what is applied, skipped or
// failed and why, and how standing decisions shape the next release.
import test from 'ava';
import type { Finding } from '../../../src/qc/finding.js';
import {
  applyDecisions,
  judgeDispositions,
  type DispositionInput,
  type StandingDecision,
} from '../../../src/working-document/decisions.js';

const finding = (key: string, severity: Finding['severity'] = 'high'): Finding => ({
  key,
  code: key.split(':')[0]!,
  severity,
  category: 'documentation',
  title: `Title of ${key}`,
  summary: `Summary of ${key}.`,
  evidence: [],
  regulation: null,
});
const standing = (
  findingKey: string,
  decision: StandingDecision['decision'],
  comment: string | null,
  sentBy: string | null = null,
): StandingDecision => ({
  findingKey,
  decision,
  comment,
  sentBy,
  decidedAt: '2026-11-25T08:00:00.000Z',
});
const release = [finding('DOC-001:urla', 'critical'), finding('DOC-002'), finding('DOC-009', 'low')];

function fields(entries: Record<string, { decision: string; comment?: string; cure?: string }>): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of release) m.set(`finding.${f.key}.decision`, '');
  for (const [key, v] of Object.entries(entries)) {
    m.set(`finding.${key}.decision`, v.decision);
    m.set(`finding.${key}.comment`, v.comment ?? '');
    m.set(`finding.${key}.cure_document`, v.cure ?? '');
  }
  return m;
}

const judge = (over: Partial<DispositionInput>) =>
  judgeDispositions({
    fields: new Map(),
    answered: release,
    current: release,
    standing: [],
    uploaded: [],
    ...over,
  }).map((d) => [d.finding, d.decision, d.outcome]);

test('an empty decision is not listed; cleared and disputed are applied', (t) => {
  t.deepEqual(
    judge({
      fields: fields({
        'DOC-002': { decision: 'cleared' },
        'DOC-009': { decision: 'disputed', comment: 'named in the index' },
      }),
    }),
    [
      ['DOC-002', 'cleared', 'applied'],
      ['DOC-009', 'disputed', 'applied'],
    ],
  );
  t.deepEqual(judge({ fields: fields({}) }), []);
});

test('cure_attached is applied only with a cure document uploaded in the same request', (t) => {
  t.deepEqual(judge({ fields: fields({ 'DOC-001:urla': { decision: 'cure_attached' } }) }), [
    ['DOC-001', 'cure_attached', 'skipped'],
  ]);
  t.deepEqual(
    judge({
      fields: fields({ 'DOC-001:urla': { decision: 'cure_attached', cure: 'urla.pdf' } }),
      uploaded: ['other.pdf'],
    }),
    [['DOC-001', 'cure_attached', 'skipped']],
  );
  // Matched by file name, whatever folder of a package it came in and whatever its case.
  t.deepEqual(
    judge({
      fields: fields({ 'DOC-001:urla': { decision: 'cure_attached', cure: 'URLA.pdf' } }),
      uploaded: ['package/urla.pdf'],
    }),
    [['DOC-001', 'cure_attached', 'applied']],
  );
});

test('a decision already standing is skipped; an unreadable value, an unknown or a superseded finding fails', (t) => {
  t.deepEqual(
    judge({ fields: fields({ 'DOC-002': { decision: 'cleared' } }), standing: [standing('DOC-002', 'cleared', null)] }),
    [['DOC-002', 'cleared', 'skipped']],
  );
  t.deepEqual(judge({ fields: fields({ 'DOC-002': { decision: 'approve' } }) }), [
    ['DOC-002', 'unrecognised', 'failed'],
  ]);
  t.regex(
    judgeDispositions({
      fields: fields({ 'DOC-002': { decision: 'approve' } }),
      answered: release,
      current: release,
      standing: [],
      uploaded: [],
    })[0]!.detail,
    /^The decision "approve" is not one of/,
  );
  t.deepEqual(judge({ fields: fields({ 'APR-001': { decision: 'cleared' } }) }), [['APR-001', 'cleared', 'failed']]);
  // The working document answers an older release whose DOC-009 the current release no longer has.
  t.deepEqual(judge({ fields: fields({ 'DOC-009': { decision: 'disputed' } }), current: release.slice(0, 2) }), [
    ['DOC-009', 'disputed', 'failed'],
  ]);
  const [detail] = judgeDispositions({
    fields: fields({ 'DOC-009': { decision: 'disputed' } }),
    answered: release,
    current: release.slice(0, 2),
    standing: [],
    uploaded: [],
  });
  t.regex(detail!.detail, /superseded release/);
});

test(
  "each disposition names its finding's id beside the code: two DOC-001 findings are told apart, " +
    "an unknown one by the field's own",
  (t) => {
    const twoOfACode = [finding('DOC-001:urla', 'critical'), finding('DOC-001:note', 'critical')];
    const judged = judgeDispositions({
      fields: new Map([
        ['finding.DOC-001:urla.decision', 'cleared'],
        ['finding.DOC-001:note.decision', 'cleared'],
        ['finding.DOC-001:appraisal.decision', 'cleared'],
      ]),
      answered: twoOfACode,
      current: twoOfACode,
      standing: [],
      uploaded: [],
    });
    t.deepEqual(
      judged.map((d) => [d.finding, d.finding_id, d.outcome]),
      [
        ['DOC-001', 'DOC-001:urla', 'applied'],
        ['DOC-001', 'DOC-001:note', 'applied'],
        ['DOC-001', 'DOC-001:appraisal', 'failed'],
      ],
    );
  },
);

test('standing decisions shape a release: cleared left out, disputed marked and counted', (t) => {
  const { findings, disputed, disputes } = applyDecisions(release, [
    standing('DOC-002', 'cleared', 'waived'),
    standing('DOC-001:urla', 'disputed', 'in the lender file', 'API key rk_live_ab12 (Loan ops), request req-7'),
    standing('DOC-009', 'cure_attached', null),
  ]);
  t.deepEqual(
    findings.map((f) => f.key),
    ['DOC-001:urla', 'DOC-009'],
  );
  t.is(findings[0]!.summary, 'Summary of DOC-001:urla. Disputed by the lender: in the lender file.');
  t.is(findings[1]!.summary, 'Summary of DOC-009.', 'a cure is re-checked by the analysis, not assumed');
  t.is(disputed, 1);
  // What the operator at the release gate reads: which finding, the comment, who sent it and when.
  t.deepEqual(disputes, [
    {
      findingId: 'DOC-001:urla',
      code: 'DOC-001',
      title: 'Title of DOC-001:urla',
      comment: 'in the lender file',
      sentBy: 'API key rk_live_ab12 (Loan ops), request req-7',
      decidedAt: '2026-11-25T08:00:00.000Z',
    },
  ]);
});

test('an operator is shown at most 20 disputes and 500 characters of a comment; the count is of them all', (t) => {
  const many = Array.from({ length: 30 }, (_, i) => finding(`DOC-005:file-${i}.pdf`));
  const { disputed, disputes } = applyDecisions(
    many,
    many.map((f) => standing(f.key, 'disputed', 'x'.repeat(2_000))),
  );
  t.is(disputed, 30);
  t.is(disputes.length, 20);
  t.is(disputes[0]!.comment!.length, 500);
  t.true(disputes[0]!.comment!.endsWith('…'));
});
