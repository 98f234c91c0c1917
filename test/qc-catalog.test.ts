// The rule catalog in code is the one of RULES.md, every rule of it is implemented exactly once, and the
// README's catalog is the one generated from the code.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { CATALOG, CATALOG_MARKERS, catalogMarkdown } from '../src/qc/catalog.js';
import { RULES } from '../src/qc/rules/registry.js';

const rulesMd = readFileSync(new URL('../../shared/design/RULES.md', import.meta.url), 'utf8');

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

test('the README rule catalog is the one generated from the code (npm run readme:catalog)', (t) => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(CATALOG_MARKERS.start) + CATALOG_MARKERS.start.length;
  const end = readme.indexOf(CATALOG_MARKERS.end);
  t.is(readme.slice(start, end).trim(), catalogMarkdown());
});
