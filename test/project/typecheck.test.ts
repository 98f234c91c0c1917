// The whole tree type-checks under the strict settings of tsconfig.json.
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

test('tsc --noEmit reports no errors', async (t) => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const result = await promisify(execFile)(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'],
    {
      cwd: root,
    },
  ).then(
    () => '',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
  t.is(result, '');
});
