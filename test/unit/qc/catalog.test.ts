// The rule catalog in code is the one of the designed catalog (docs/design/RULES.md), and every rule of it is
// implemented exactly once. docs/rules.md prints it (test/unit/docs.test.ts keeps that current).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { CATALOG } from '../../../src/qc/catalog.js';
import { RULES } from '../../../src/qc/rules/registry.js';

const rulesMd = readFileSync(new URL('../../../docs/design/RULES.md', import.meta.url), 'utf8');

/** Rules the engine adds to RULES.md's catalog, in its style (issue 12: a stated-income affidavit against the stubs). */
const ADDED = ['INC-004'];

test('the catalog has the codes, severities, categories and checks of RULES.md, in its order, and the rules added to it', (t) => {
  const rows = rulesMd
    .split('\n')
    .map((line) => /^\| ([A-Z]{3}-\d{3}) \| (\w+) \| (\w+) \| (.+) \|$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ code: m[1], severity: m[2], category: m[3], check: m[4] }));
  t.is(rows.length, 38);
  t.deepEqual(
    CATALOG.filter(({ code }) => !ADDED.includes(code)).map(({ code, severity, category, check }) => ({ code, severity, category, check })),
    rows,
  );
  t.deepEqual(
    CATALOG.filter(({ code }) => ADDED.includes(code)).map(({ code }) => code),
    ADDED,
  );
});

test('every catalog rule is implemented by exactly one rule module entry', (t) => {
  t.deepEqual(
    RULES.map((r) => r.code).sort(),
    CATALOG.map((r) => r.code).sort(),
  );
});
