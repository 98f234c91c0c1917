// The harness every benchmark of `npm run bench` uses: the service's path ("here") and its plain
// alternative measured in alternating rounds in one process, so that both see the same machine load; each
// round records the one-minute load average beside its figure. A benchmark ends by printing one
// `BENCH-RESULT {json}` line, which bench/all.ts collects into the table of ratios.
import { loadavg } from 'node:os';

export interface Sample {
  value: number;
  /** The one-minute load average when the round ended. */
  load: number;
}

export interface Side {
  label: string;
  samples: Sample[];
}

export interface Comparison {
  /** A short name for the table's first column. */
  what: string;
  unit: string;
  /** Throughputs (req/s, pages/s) are better higher; times better lower. */
  higherIsBetter: boolean;
  here: Side;
  plain: Side;
  /** The least acceptable ratio of here to plain (1 = as good as the plain alternative); none: a figure only. */
  target?: number;
  /** Further figures the benchmark measured, printed under the table (e.g. memory growth). */
  notes?: string[];
}

export interface Summary {
  min: number;
  median: number;
  max: number;
  load: number;
}

export const RESULT_PREFIX = 'BENCH-RESULT ';
export const MIN_ROUNDS = 3;

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const m = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(m)]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

export function summary(side: Side): Summary {
  if (side.samples.length === 0) throw new Error(`no figures for ${side.label}`);
  const values = side.samples.map((s) => s.value).sort((a, b) => a - b);
  return {
    min: values[0]!,
    median: median(values),
    max: values[values.length - 1]!,
    load: median(side.samples.map((s) => s.load)),
  };
}

/** Here against plain, as "how many times as good": throughput here ÷ plain, or time plain ÷ here. */
export function ratio(c: Comparison): number {
  const here = summary(c.here).median;
  const plain = summary(c.plain).median;
  return c.higherIsBetter ? here / plain : plain / here;
}

/**
 * Measures `here` and `plain` alternately, `rounds` times each (the order flips every round so that
 * neither always goes first). Every measurement must give a finite figure: a missing one throws.
 */
export async function alternate(
  rounds: number,
  here: { label: string; measure: (round: number) => Promise<number> },
  plain: { label: string; measure: (round: number) => Promise<number> },
  log: (line: string) => void = (line) => console.error(line),
): Promise<{ here: Side; plain: Side }> {
  if (rounds < MIN_ROUNDS) throw new Error(`at least ${MIN_ROUNDS} rounds, not ${rounds}`);
  const sides = {
    here: { label: here.label, samples: [] as Sample[] },
    plain: { label: plain.label, samples: [] as Sample[] },
  };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['here', 'plain'] as const) : (['plain', 'here'] as const);
    for (const which of order) {
      const side = which === 'here' ? here : plain;
      const value = await side.measure(round);
      if (!Number.isFinite(value)) throw new Error(`${side.label}, round ${round + 1}: no figure (${value})`);
      const sample = { value, load: loadavg()[0]! };
      sides[which].samples.push(sample);
      log(`  round ${round + 1} ${side.label}: ${value.toFixed(2)} (load ${sample.load.toFixed(2)})`);
    }
  }
  return sides;
}

/** Prints the comparison as the line bench/all.ts reads, after a human-readable summary on stderr. */
export function report(c: Comparison): void {
  const h = summary(c.here);
  const p = summary(c.plain);
  console.error(
    `${c.what}: here median ${h.median.toFixed(2)} ${c.unit}, plain median ${p.median.toFixed(2)} ` +
      `${c.unit}, ratio ${ratio(c).toFixed(2)}${c.target === undefined ? '' : ` (target ≥ ${c.target})`}`,
  );
  console.log(RESULT_PREFIX + JSON.stringify(c));
}
