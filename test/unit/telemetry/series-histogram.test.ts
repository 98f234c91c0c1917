import test from 'ava';
import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from '../../../src/telemetry/series-histogram.js';

const BUCKETS = [0.005, 0.01, 0.1, 1];
const OBSERVATIONS: [number, string, string][] = [
  [0.004, 'GET', '2xx'],
  [0.005, 'GET', '2xx'],
  [0.0051, 'GET', '2xx'],
  [0.5, 'POST', '4xx'],
  [7, 'POST', '4xx'],
  [0, 'GET', '5xx'],
];

test(
  'a series histogram writes the same exposition text as ' + 'prom-client’s histogram for the same observations',
  async (t) => {
    const ours = new Registry();
    const theirs = new Registry();
    const o = {
      name: 'req_seconds',
      help: 'Requests.',
      labelNames: ['method', 'status_class'] as const,
      buckets: BUCKETS,
    };
    const fast = new SeriesHistogram({ ...o, registers: [ours] });
    const reference = new Histogram({ ...o, registers: [theirs] });
    for (const [seconds, method, status_class] of OBSERVATIONS) {
      fast.observe(seconds, method, status_class);
      reference.observe({ method, status_class }, seconds);
    }
    const text = await ours.metrics();
    t.is(text, await theirs.metrics());
    t.regex(text, /^req_seconds_bucket\{le="0\.005",method="GET",status_class="2xx"\} 2$/m);
    t.regex(text, /^req_seconds_bucket\{le="\+Inf",method="POST",status_class="4xx"\} 2$/m);
    t.regex(text, /^req_seconds_count\{method="POST",status_class="4xx"\} 2$/m);
  },
);

test(
  'an observation that is not a finite number is not counted; ' + 'a wrong number of label values is refused',
  async (t) => {
    const registry = new Registry();
    const h = new SeriesHistogram({
      name: 'x_seconds',
      help: 'X.',
      labelNames: ['a'],
      buckets: [1],
      registers: [registry],
    });
    h.observe(Number.NaN, 'one');
    h.observe(Number.POSITIVE_INFINITY, 'one');
    t.notRegex(await registry.metrics(), /x_seconds_count/);
    t.throws(() => h.observe(1, 'one', 'two'), { message: /1 label values expected, 2 given/ });
  },
);

test('buckets that do not ascend are refused', (t) => {
  t.throws(() => new SeriesHistogram({ name: 'y', help: 'Y.', labelNames: [], buckets: [1, 1], registers: [] }), {
    message: /ascend/,
  });
});
