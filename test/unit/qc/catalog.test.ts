// The rule catalog in code is the one of the designed catalog (docs/design/RULES.md), and every rule of it is
// implemented exactly once. docs/rules.md prints it (test/unit/docs.test.ts keeps that current).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { CATALOG, type RuleSpec } from '../../../src/qc/catalog.js';
import type { Finding } from '../../../src/qc/finding.js';
import { distinctKeys, RULES } from '../../../src/qc/rules/registry.js';

const rulesMd = readFileSync(new URL('../../../docs/design/RULES.md', import.meta.url), 'utf8');

/**
 * Rules the engine adds to RULES.md's catalog, in its style and catalog order: a URLA contradicting itself,
 * a stated-income affidavit against the stubs.
 */
const ADDED = ['DOC-013', 'INC-004'];

test(
  'the catalog has the codes, severities, categories and checks of RULES.md, in its order, and ' +
    'the rules added to it',
  (t) => {
    const rows = rulesMd
      .split('\n')
      .map((line) => /^\| ([A-Z]{3}-\d{3}) \| (\w+) \| (\w+) \| (.+) \|$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => ({ code: m[1], severity: m[2], category: m[3], check: m[4] }));
    t.is(rows.length, 38);
    t.deepEqual(
      CATALOG.filter(({ code }) => !ADDED.includes(code)).map(({ code, severity, category, check }) => ({
        code,
        severity,
        category,
        check,
      })),
      rows,
    );
    t.deepEqual(
      CATALOG.filter(({ code }) => ADDED.includes(code)).map(({ code }) => code),
      ADDED,
    );
  },
);

test('every catalog rule is implemented by exactly one rule module entry', (t) => {
  t.deepEqual(RULES.map((r) => r.code).sort(), CATALOG.map((r) => r.code).sort());
});

test(
  'every regulation a rule applies is a provision of Regulation Z as RULES.md cites them (12 CFR ' + '1026.N(x)...)',
  (t) => {
    const cited = (CATALOG as readonly RuleSpec[]).flatMap((r) => (r.regulation ? [r.regulation] : []));
    t.true(cited.length >= 20);
    for (const regulation of cited) t.regex(regulation, /^12 CFR 1026\.\d+(\([A-Za-z0-9]+\))+$/);
    // The timing rules apply the provisions RULES.md gives for them.
    const of = (code: string) => CATALOG.find((r) => r.code === code)?.regulation;
    t.is(of('TRD-002'), '12 CFR 1026.19(f)(1)(ii)');
    t.is(of('TRD-001'), '12 CFR 1026.19(e)(1)(iii)(A)');
    t.is(of('QMF-001'), '12 CFR 1026.43(e)(3)');
    t.is(of('DOC-011'), null);
  },
);

test('two findings never share a key: a repeated one is numbered, in order', (t) => {
  const finding = (key: string): Finding => ({
    key,
    code: 'DOC-005',
    severity: 'high',
    category: 'documentation',
    title: 't',
    summary: 's',
    evidence: [],
    regulation: null,
  });
  t.deepEqual(
    distinctKeys([
      finding('DOC-005:a.pdf'),
      finding('DOC-005:b.pdf'),
      finding('DOC-005:a.pdf'),
      finding('DOC-005:a.pdf'),
    ]).map((f) => f.key),
    ['DOC-005:a.pdf', 'DOC-005:b.pdf', 'DOC-005:a.pdf~2', 'DOC-005:a.pdf~3'],
  );
});
