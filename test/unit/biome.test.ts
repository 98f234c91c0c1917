// The tree is formatted and linted as biome.json says (Biome: 2 spaces, single quotes, lines wrapped at
// 120; the recommended lint rules, warnings included): a file that is not fails here, with what Biome
// says of it. `npx biome check --write .` formats the tree and applies the safe fixes.
import test from 'ava';
import { execFile } from 'node:child_process';
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
