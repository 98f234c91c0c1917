// The tree is formatted and linted as biome.json says (Biome: 2 spaces, single quotes, lines wrapped at
// 120; the recommended lint rules, warnings included): a file that is not fails here, with what Biome
// says of it. And no line is longer than 120 characters, comments included (the formatter does not wrap
// them), except where a single string, template or regular expression literal is what makes it long:
// Biome never breaks a literal, and a pattern or message cut into pieces to fit is harder to read and to
// grep than one long line. `npm run format` formats the tree and applies the safe fixes.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

const MAX_LINE = 120;

/** Where the contents of each literal of `text` lie: quotes, slashes and flags left out, and a template's `${…}`. */
function literalContents(fileName: string, text: string): { start: number; end: number }[][] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const literals: { start: number; end: number }[][] = [];
  const visit = (node: ts.Node): void => {
    const start = node.getStart(source);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      literals.push([{ start: start + 1, end: node.end - 1 }]);
    } else if (ts.isRegularExpressionLiteral(node)) {
      literals.push([{ start: start + 1, end: start + node.text.lastIndexOf('/') }]);
    } else if (ts.isTemplateExpression(node)) {
      // The text of `…${, }…${ and }…` is the literal's; the code inside ${…} is code, and must fit.
      const parts = [node.head, ...node.templateSpans.map((span) => span.literal)];
      literals.push(
        parts.map((part) => ({ start: part.getStart(source) + 1, end: part.end - (ts.isTemplateTail(part) ? 1 : 2) })),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return literals;
}

/**
 * The lines of `text` longer than 120 characters, but for those one literal makes long: a line that is at most
 * 120 characters without the contents of one string, template or regex literal passes (Biome does not wrap
 * literals, and a pattern cut to fit reads and greps worse than a long line). Comments and code must fit: a
 * literal excuses neither the comment nor the code beside it, and several literals together excuse nothing.
 */
function longLines(fileName: string, text: string): { line: number; length: number }[] {
  const width = (from: number, to: number) => (from < to ? [...text.slice(from, to)].length : 0);
  const lines: { line: number; start: number; end: number }[] = [];
  let start = 0;
  for (const [i, line] of text.split('\n').entries()) {
    lines.push({ line: i + 1, start, end: start + line.length });
    start += line.length + 1;
  }
  const long = lines.filter(({ start, end }) => width(start, end) > MAX_LINE);
  if (long.length === 0) return [];
  const literals = literalContents(fileName, text);
  const excused = ({ start, end }: { start: number; end: number }) =>
    literals.some((parts) => {
      const inside = parts.reduce((sum, p) => sum + width(Math.max(p.start, start), Math.min(p.end, end)), 0);
      return inside > 0 && width(start, end) - inside <= MAX_LINE;
    });
  return long.filter((l) => !excused(l)).map(({ line, start, end }) => ({ line, length: width(start, end) }));
}

/** The TypeScript and JavaScript files git tracks, with `git ls-files` options. */
async function sources(...options: string[]): Promise<string[]> {
  const git = ['ls-files', ...options, '*.ts', '*.mjs', '*.js'];
  const { stdout } = await run('git', git, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').filter(Boolean);
}

test('every source file is formatted and passes the linter as biome.json says', async (t) => {
  const biome = fileURLToPath(new URL('../../node_modules/@biomejs/biome/bin/biome', import.meta.url));
  const outcome = await run(process.execPath, [biome, 'ci', '--error-on-warnings', '--max-diagnostics=20', '.'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? 1,
      output: `${err.stdout ?? ''}${err.stderr ?? ''}`,
    }),
  );
  t.is(outcome.code, 0, outcome.output.slice(-6_000));
  t.regex(outcome.output, /Checked \d{3,} files/);
});

test('no line of the TypeScript and JavaScript sources is longer than 120 characters', async (t) => {
  // The files of the work tree, as Biome checks them: a tracked file deleted there is no source any more.
  const deleted = new Set(await sources('--deleted'));
  const files = (await sources()).filter((file) => !deleted.has(file));
  t.true(files.length > 300, `${files.length} files`);
  const long: string[] = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const { line, length } of longLines(file, text)) long.push(`${file}:${line} (${length})`);
  }
  t.deepEqual(long, []);
});

test('a line may pass 120 characters for one string, template or regex literal, not for a comment or code', (t) => {
  const x = (n: number) => 'x'.repeat(n);
  const sample: [allowed: boolean, line: string][] = [
    [true, `const pattern = /${x(150)}\\/${x(10)}/i;`],
    [true, `const message = '${x(150)}';`],
    [true, `const message = \`${x(70)}\${value}${x(70)}\`;`],
    [true, `fn(String.raw\`${x(150)}\`);`],
    [true, `const text = \`first line`],
    [true, `${x(150)} last line\`;`],
    [true, `const fits = /${x(60)}/;`],
    [false, `// ${x(150)}`],
    [false, `const pattern = /${x(60)}/; // ${x(110)}`],
    [false, `const names = [${Array.from({ length: 30 }, (_, i) => `name${i}`).join(', ')}];`],
    [false, `const parts = ['${x(60)}', '${x(60)}', '${x(60)}'];`],
    [false, `const sum = ${Array.from({ length: 40 }, (_, i) => `a${i}`).join(' + ')} + '${x(10)}';`],
    [false, `const message = \`${x(10)}\${${Array.from({ length: 30 }, (_, i) => `a${i}`).join(' + ')}}\`;`],
  ];
  // All but the first line of the template and the one that fits are long; the refused ones are refused.
  t.true(sample.every(([, line], i) => i === 4 || i === 6 || line.length > 130));
  t.deepEqual(
    longLines('sample.ts', sample.map(([, line]) => line).join('\n')).map(({ line }) => line),
    sample.flatMap(([allowed], i) => (allowed ? [] : [i + 1])),
  );
});
