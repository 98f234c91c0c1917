// The tree is formatted and linted as biome.json says (Biome: 2 spaces, single quotes, lines wrapped at
// 120; the recommended lint rules, warnings included): a file that is not fails here, with what Biome
// says of it; and no line is longer than 120 characters (strings and comments included, which the
// formatter does not wrap). `npm run format` formats the tree and applies the safe fixes.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

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
  const { stdout } = await run('git', ['ls-files', '*.ts', '*.mjs', '*.js'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const files = stdout.split('\n').filter(Boolean);
  t.true(files.length > 300, `${files.length} files`);
  const long: string[] = [];
  for (const file of files) {
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      const length = [...line].length;
      if (length > 120) long.push(`${file}:${i + 1} (${length})`);
    });
  }
  t.deepEqual(long, []);
});
