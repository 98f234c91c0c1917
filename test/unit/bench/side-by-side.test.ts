// npm run bench's harness: rounds alternate, every figure is kept with the load beside it, a missing
// figure fails the run, and the README's performance table is the runner's table for every benchmark.
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

test("the README's performance table is the runner's output: dated, with the machine, one row per benchmark", (t) => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = /<!-- bench:begin -->\n([\s\S]*?)\n<!-- bench:end -->/.exec(readme)?.[1];
  t.truthy(section, 'README.md has the bench markers');
  t.regex(section!, /^Measured by `npm run bench` on \d{4}-\d{2}-\d{2}, \d+ × .+, \d+ GiB, Node \d+/);
  const rows = section!.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| what'));
  t.deepEqual(
    rows.map((row) => row.split(' | ')[0]!.slice(2)),
    BENCHMARKS.flatMap((b) => b.expects),
  );
  // The runner's own table has the same shape.
  const sample = table(
    [
      {
        what: 'x',
        unit: 's',
        higherIsBetter: false,
        here: { label: 'h', samples: [1, 1, 1].map((value) => ({ value, load: 1 })) },
        plain: { label: 'p', samples: [1, 1, 1].map((value) => ({ value, load: 1 })) },
        target: 0.5,
      },
    ],
    new Date('2026-11-25T00:00:00Z'),
  );
  t.regex(sample, /^Measured by `npm run bench` on 2026-11-25, /);
});
