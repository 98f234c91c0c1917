// A Prometheus histogram for the API's per-request observations, registered with a prom-client registry and
// written out by it. prom-client's own histogram converts, validates and hashes the label values on every
// observation, even through a labelled child; on a read that observes three times (the request, its
// queries) that was most of what metrics cost. Here each label set's counts are found once and an
// observation is a bucket search and three additions.
import type { Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  /** Per bucket, not cumulative: observations at most this bound and above the one before. */
  counts: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

export class SeriesHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly series = new Map<string, Series>();

  constructor(o: {
    name: string;
    help: string;
    labelNames: readonly L[];
    buckets: readonly number[];
    registers: Registry[];
  }) {
    if (o.buckets.some((b, i) => i > 0 && b <= o.buckets[i - 1]!)) throw new Error(`${o.name}: buckets must ascend`);
    this.name = o.name;
    this.help = o.help;
    this.labelNames = o.labelNames;
    this.bounds = o.buckets;
    for (const registry of o.registers) registry.registerMetric(this as never);
  }

  /** Counts one observation for the label values given in `labelNames`' order. */
  observe(seconds: number, ...values: string[]): void {
    if (!Number.isFinite(seconds)) return;
    const key = values.join('\0');
    let s = this.series.get(key);
    if (!s) {
      if (values.length !== this.labelNames.length)
        throw new Error(`${this.name}: ${this.labelNames.length} label values expected, ${values.length} given`);
      s = {
        labels: Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]!])),
        counts: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    let b = 0;
    while (b < this.bounds.length && seconds > this.bounds[b]!) b++;
    s.counts[b]!++;
    s.sum += seconds;
    s.count++;
  }

  /** What prom-client's registry writes out: cumulative buckets with `le`, then the sum and the count. */
  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let b = 0; b <= this.bounds.length; b++) {
        cumulative += s.counts[b]!;
        const le = b < this.bounds.length ? this.bounds[b]! : '+Inf';
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
