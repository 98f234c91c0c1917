// `npm run bench`: every side-by-side benchmark, one after another (each against its plain alternative in
// alternating rounds, bench/side-by-side.ts), then one table of ratios. `npm run bench -- --readme` also
// writes that table, with the date and the machine, into README.md, and with every benchmark's notes into
// docs/benchmarks.md, each between its bench markers. Any
// benchmark that fails or gives no figure fails the whole run: a partial table is never printed.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RESULT_PREFIX, ratio, summary, type Comparison } from './side-by-side.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each benchmark and the comparisons it must report (by `what`), in table order. */
export const BENCHMARKS: readonly { script: string; expects: readonly string[] }[] = [
  { script: 'bench/reads.ts', expects: ['GET /v1/reviews/{id}'] },
  { script: 'bench/review-list.ts', expects: ['GET /v1/reviews with a filter, 1,000,000 reviews'] },
  { script: 'bench/upload.ts', expects: ['200 MiB single-file create'] },
  { script: 'bench/ocr.ts', expects: ['OCR of scanned pages'] },
  { script: 'bench/qc-throughput.ts', expects: ['300 text-layer pages', '30 scanned pages'] },
  { script: 'bench/burst.ts', expects: ['20 simultaneous creates'] },
  { script: 'bench/loan-file.ts', expects: ['150-page loan file, created → completed'] },
  {
    script: 'bench/create-burst.ts',
    expects: ['200 simultaneous multipart creates', '200 simultaneous creates by signed URL'],
  },
  { script: 'bench/hostile-uploads.ts', expects: ['API event-loop p99 under hostile uploads'] },
  { script: 'bench/startup.ts', expects: ['launch → ready'] },
  {
    script: 'bench/telemetry-cost.ts',
    expects: [
      'GET /v1/reviews/{id}, metrics on',
      'GET /v1/reviews/{id}, metrics on, traces exported',
      'GET /v1/reviews/{id}, metrics on, every trace exported',
      'API CPU per small live create, metrics on',
      'API CPU per small live create, metrics on, traces exported',
      'API CPU per small live create, metrics on, every trace exported',
    ],
  },
];

function runBenchmark(script: string): Promise<Comparison[]> {
  return new Promise((resolve, reject) => {
    console.error(`\n== ${script}`);
    const child = spawn(process.execPath, ['--import=tsx', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      process.stderr.write(
        chunk
          .split('\n')
          .filter((l) => l && !l.startsWith(RESULT_PREFIX))
          .map((l) => `${l}\n`)
          .join(''),
      );
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`${script} failed (${signal ?? `exit ${code}`})`));
      resolve(
        out
          .split('\n')
          .filter((l) => l.startsWith(RESULT_PREFIX))
          .map((l) => JSON.parse(l.slice(RESULT_PREFIX.length)) as Comparison),
      );
    });
  });
}

const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const side = (c: Comparison, which: 'here' | 'plain') => {
  const s = summary(c[which]);
  return `${c[which].label}: **${fmt(s.median)}** ${c.unit} (${fmt(s.min)}–${fmt(s.max)}; load ${s.load.toFixed(1)})`;
};

export function table(results: readonly Comparison[], when: Date, o: { notes?: boolean } = {}): string {
  const cpu = cpus();
  const machine =
    `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  const rows = results.map((c) => {
    const r = ratio(c);
    return (
      `| ${c.what} | ${side(c, 'here')} | ${side(c, 'plain')} | **${r.toFixed(2)}** | ` +
      `${c.target === undefined ? 'none' : `≥ ${c.target} ${r >= c.target ? '✓' : '✗'}`} |`
    );
  });
  const notes = results.flatMap((c) => (c.notes ?? []).map((n) => `- ${c.what}: ${n}`));
  return [
    `Measured by \`npm run bench\` on ${when.toISOString().slice(0, 10)}, ${machine}; median of at ` +
      `least ${Math.min(...results.map((c) => Math.min(c.here.samples.length, c.plain.samples.length)))} ` +
      `alternating rounds each (min–max, one-minute load average).`,
    '',
    '| what | here | plain alternative | ratio | target |',
    '|---|---|---|---|---|',
    ...rows,
    ...((o.notes ?? true) && notes.length ? ['', ...notes] : []),
  ].join('\n');
}

async function main() {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const chosen = only.length ? BENCHMARKS.filter((b) => only.some((o) => b.script.includes(o))) : BENCHMARKS;
  const results: Comparison[] = [];
  for (const b of chosen) {
    const got = await runBenchmark(b.script);
    for (const what of b.expects) {
      const c = got.find((g) => g.what === what);
      if (!c) throw new Error(`${b.script} reported no figure for "${what}"`);
      summary(c.here);
      summary(c.plain);
      results.push(c);
    }
  }
  const text = table(results, new Date());
  console.log(text);
  if (process.argv.includes('--readme')) {
    if (chosen !== BENCHMARKS) throw new Error('--readme needs every benchmark');
    const when = new Date();
    await writeBetweenMarkers('README.md', table(results, when, { notes: false }));
    await writeBetweenMarkers('docs/benchmarks.md', table(results, when));
  }
}

/** Replaces what stands between the file's bench markers with `text`. */
async function writeBetweenMarkers(file: string, text: string): Promise<void> {
  const path = `${ROOT}/${file}`;
  const content = await readFile(path, 'utf8');
  const marked = /(<!-- bench:begin -->\n)[\s\S]*?(<!-- bench:end -->)/;
  if (!marked.test(content)) throw new Error(`${file} has no <!-- bench:begin --> … <!-- bench:end --> markers`);
  await writeFile(
    path,
    content.replace(marked, (_m, a: string, b: string) => `${a}${text}\n${b}`),
  );
  console.error(`${file} updated`);
}

// Run, not imported (the unit tests read BENCHMARKS and table).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
