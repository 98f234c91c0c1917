// npm run bench's harness: rounds alternate, every figure is kept with the load beside it, a missing
// figure fails the run, and the README's performance table (and docs/benchmarks.md's, with the notes) is
// the runner's table for every benchmark.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { BENCHMARKS, table } from '../../../bench/all.js';
import { alternate, ratio, summary, type Comparison } from '../../../bench/side-by-side.js';

test('rounds alternate, flipping which side goes first, and each keeps its figure', async (t) => {
  const order: string[] = [];
  const sides = await alternate(
    4,
    {
      label: 'here',
      measure: async (round) => {
        order.push(`here ${round}`);
        return 10 + round;
      },
    },
    {
      label: 'plain',
      measure: async (round) => {
        order.push(`plain ${round}`);
        return 20 + round;
      },
    },
    () => {},
  );
  t.deepEqual(order, ['here 0', 'plain 0', 'plain 1', 'here 1', 'here 2', 'plain 2', 'plain 3', 'here 3']);
  t.deepEqual(
    sides.here.samples.map((s) => s.value),
    [10, 11, 12, 13],
  );
  t.true(sides.plain.samples.every((s) => Number.isFinite(s.load)));
});

test('fewer than three rounds, or a round without a figure, fails the run', async (t) => {
  const one = { label: 'x', measure: async () => 1 };
  await t.throwsAsync(
    alternate(2, one, one, () => {}),
    { message: /at least 3 rounds/ },
  );
  await t.throwsAsync(
    alternate(3, one, { label: 'broken', measure: async () => Number.NaN }, () => {}),
    { message: /broken, round 1: no figure/ },
  );
});

test('the summary is min, median and max; the ratio is how many times as good as the plain side', (t) => {
  const side = (label: string, values: number[]) => ({ label, samples: values.map((value) => ({ value, load: 1 })) });
  const times: Comparison = {
    what: 't',
    unit: 's',
    higherIsBetter: false,
    here: side('h', [3, 1, 2]),
    plain: side('p', [1, 1, 1]),
    target: 0.7,
  };
  t.deepEqual(summary(times.here), { min: 1, median: 2, max: 3, load: 1 });
  t.is(ratio(times), 0.5);
  t.is(ratio({ ...times, higherIsBetter: true }), 2);
  t.throws(() => summary(side('empty', [])), { message: /no figures for empty/ });
});

test("the README's performance table and docs/benchmarks.md's are the runner's output: dated, with the machine, one row per benchmark", (t) => {
  const section = (file: string) => {
    const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    return /<!-- bench:begin -->\n([\s\S]*?)\n<!-- bench:end -->/.exec(text)?.[1];
  };
  const rowsOf = (text: string) =>
    text.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| what'));
  const readme = section('README.md');
  const page = section('docs/benchmarks.md');
  t.truthy(readme, 'README.md has the bench markers');
  t.truthy(page, 'docs/benchmarks.md has the bench markers');
  for (const s of [readme!, page!]) {
    t.regex(s, /^Measured by `npm run bench` on \d{4}-\d{2}-\d{2}, \d+ × .+, \d+ GiB, Node \d+/);
    t.deepEqual(
      rowsOf(s).map((row) => row.split(' | ')[0]!.slice(2)),
      BENCHMARKS.flatMap((b) => b.expects),
    );
  }
  // The same rows; the page has the notes beside them, the README none.
  t.deepEqual(rowsOf(readme!), rowsOf(page!));
  t.false(readme!.includes('\n- '));
  t.true(page!.includes('\n- '));
  // The runner's own table has the same shape, with its notes or without.
  const comparison = {
    what: 'x',
    unit: 's',
    higherIsBetter: false,
    here: { label: 'h', samples: [1, 1, 1].map((value) => ({ value, load: 1 })) },
    plain: { label: 'p', samples: [1, 1, 1].map((value) => ({ value, load: 1 })) },
    target: 0.5,
    notes: ['a note'],
  };
  const when = new Date('2026-11-25T00:00:00Z');
  t.regex(table([comparison], when), /^Measured by `npm run bench` on 2026-11-25, [\s\S]*\n- x: a note$/);
  t.false(table([comparison], when, { notes: false }).includes('a note'));
});
