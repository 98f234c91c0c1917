// The compiled API and worker (scripts/compile.ts) are built once and reused while their inputs are
// unchanged, and built again when one changed: a start never runs a stale build. Shown on a small project
// of its own in a temporary directory, so that no source of the repository is touched.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureCompiled, SERVICES, type CompileTarget } from '../../scripts/compile.js';

const run = promisify(execFile);

async function project(t: { teardown: (fn: () => Promise<void>) => void }): Promise<CompileTarget> {
  const root = await mkdtemp(join(tmpdir(), 'loan-review-compile-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  await writeFile(
    join(root, 'main.ts'),
    "import { greeting } from './greeting.js';\nconsole.log(greeting satisfies string);\n",
  );
  await writeFile(join(root, 'greeting.ts'), "export const greeting: string = 'first';\n");
  return { entries: { main: 'main.ts' }, root, outDir: join(root, 'out'), stamp: 'main.stamp.json' };
}

const output = async (target: CompileTarget) =>
  (await run(process.execPath, [join(target.outDir, 'main.js')])).stdout.trim();

test('a build is reused while its sources are unchanged', async (t) => {
  const target = await project(t);
  const first = await ensureCompiled(target);
  t.true(first.built);
  t.is(first.files.main, join(target.outDir, 'main.js'));
  t.is(await output(target), 'first');
  const compiled = await readFile(first.files.main!, 'utf8');

  const second = await ensureCompiled(target);
  t.false(second.built, 'nothing changed: the build is reused');
  t.is(await readFile(second.files.main!, 'utf8'), compiled);
});

test('a change to an imported source builds again, and the new build runs the change', async (t) => {
  const target = await project(t);
  t.true((await ensureCompiled(target)).built);
  // Not the entry: a module it imports, which the stamp knows of from the last build's inputs.
  await writeFile(join(target.root, 'greeting.ts'), "export const greeting: string = 'second';\n");
  t.true((await ensureCompiled(target)).built, 'a changed input builds again');
  t.is(await output(target), 'second');
  t.false((await ensureCompiled(target)).built);
});

test('a changed lockfile or a missing stamp builds again', async (t) => {
  const target = await project(t);
  t.true((await ensureCompiled(target)).built);
  await writeFile(join(target.root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
  t.true((await ensureCompiled(target)).built, 'other package versions: built again');
  await rm(join(target.outDir, target.stamp));
  t.true((await ensureCompiled(target)).built, 'no stamp: built again');
});

test(
  "the services are the API, the worker, the pdf.js thread, the working-document parser's and the " +
    "extraction's threads and the worker's process helper, built into .build/ beside the worker",
  (t) => {
    // src/runtime/thread-entry.ts looks for ./<name>.js beside the compiled module that imports it.
    t.deepEqual(Object.keys(SERVICES.entries).sort(), [
      'api',
      'extraction-thread',
      'marker-thread',
      'pdf-thread',
      'spawner-process',
      'worker',
    ]);
    t.is(SERVICES.outDir, join(SERVICES.root, '.build'));
  },
);
