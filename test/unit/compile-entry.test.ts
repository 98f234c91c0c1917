// The launchers scripts/run.mjs runs compiled (scripts/compile-entry.mjs): a build is used only while it
// is of today's sources, and the compiled modules see their sources' own locations. Shown on a small
// project of its own in a temporary directory, so that no source of the repository is touched.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compile, currentBuild, type EntryBuildPlace } from '../../scripts/compile-entry.mjs';
import { REPO_ROOT } from '../../scripts/stack/stack.js';

const run = promisify(execFile);

async function project(t: {
  teardown: (fn: () => Promise<void>) => void;
}): Promise<EntryBuildPlace & { entry: string }> {
  const root = await mkdtemp(join(tmpdir(), 'loan-review-compile-entry-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  await writeFile(join(root, 'tsconfig.json'), '{}\n');
  await mkdir(join(root, 'scripts', 'stack'), { recursive: true });
  // The entry prints what it imports, then what a module it imports with import() says.
  await writeFile(
    join(root, 'scripts', 'launch.ts'),
    "import { greeting, root } from './stack/greeting.js';\nconsole.log(greeting satisfies string, " +
      "root);\nconst later = await import('./later.js');\nconsole.log(later.word);\n",
  );
  // Two levels below the root, like scripts/stack/stack.ts finding the repository's root.
  await writeFile(
    join(root, 'scripts', 'stack', 'greeting.ts'),
    "import { fileURLToPath } from 'node:url';\nexport const greeting: string = 'first';\nexport " +
      "const root = fileURLToPath(new URL('../..', import.meta.url));\n",
  );
  await writeFile(join(root, 'scripts', 'later.ts'), "export const word: string = 'later';\n");
  return { root, outDir: join(root, '.build', 'scripts'), entry: join(root, 'scripts', 'launch.ts') };
}

const output = async (program: string) => (await run(process.execPath, [program])).stdout.trim().split('\n');

test('a build is used while its sources are unchanged, and runs as the sources do', async (t) => {
  const p = await project(t);
  t.is(await currentBuild(p.entry, p), undefined, 'nothing built yet');
  const program = await compile(p.entry, p);
  t.is(await currentBuild(p.entry, p), program, 'nothing changed: the build is current');
  // import.meta.url is the source's: two levels up from scripts/stack/ is the project's root, not the
  // build's; the module imported with import() is loaded from its own chunk.
  t.deepEqual(await output(program), [`first ${p.root}/`, 'later']);
});

test('a change to any module the entry imports makes the build stale, and the new build runs the change', async (t) => {
  const p = await project(t);
  const first = await compile(p.entry, p);
  // Not the entry, nor a module it imports at its start: one it imports later with import().
  await writeFile(join(p.root, 'scripts', 'later.ts'), "export const word: string = 'changed';\n");
  t.is(await currentBuild(p.entry, p), undefined, 'a changed input: stale');
  const second = await compile(p.entry, p);
  t.not(second, first, "each build's entry has a name of its own");
  t.is(await currentBuild(p.entry, p), second);
  t.deepEqual(await output(second), [`first ${p.root}/`, 'changed']);
});

test(
  'a changed lockfile or tsconfig.json, a deleted source or a deleted file of the build ' + 'makes it stale',
  async (t) => {
    const p = await project(t);
    await compile(p.entry, p);
    await writeFile(join(p.root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
    t.is(await currentBuild(p.entry, p), undefined, "other package versions (esbuild's among them)");
    await compile(p.entry, p);
    await writeFile(join(p.root, 'tsconfig.json'), '{"compilerOptions": {"useDefineForClassFields": false}}\n');
    t.is(await currentBuild(p.entry, p), undefined, 'other compiler options');

    await compile(p.entry, p);
    const chunk = (await readdir(p.outDir)).find((f) => f.startsWith('chunk-') && f.endsWith('.js'));
    t.truthy(chunk, 'the module imported later is a chunk of its own');
    await rm(join(p.outDir, chunk!));
    t.is(await currentBuild(p.entry, p), undefined, 'a chunk it would import later is gone');

    await compile(p.entry, p);
    await rm(join(p.root, 'scripts', 'later.ts'));
    t.is(await currentBuild(p.entry, p), undefined, 'a source of the build is gone');
  },
);

test('a build of the same sources in another place is not current there', async (t) => {
  // The compiled modules carry their sources' paths (import.meta.url): a moved checkout builds again.
  const p = await project(t);
  await compile(p.entry, p);
  const moved = `${p.root}-moved`;
  t.teardown(() => rm(moved, { recursive: true, force: true }));
  await run('cp', ['-r', p.root, moved]);
  t.is(
    await currentBuild(join(moved, 'scripts', 'launch.ts'), { root: moved, outDir: join(moved, '.build', 'scripts') }),
    undefined,
  );
});

test(
  'a CommonJS-only package imported statically is loaded with require, an import() and a package ' +
    'with ESM of its own stay imports',
  async (t) => {
    const p = await project(t);
    await symlink(join(REPO_ROOT, 'node_modules'), join(p.root, 'node_modules'));
    // swagger-ui-dist is CommonJS only; zod has ESM of its own (import and require load different files).
    await writeFile(
      join(p.root, 'scripts', 'launch.ts'),
      [
        "import { getAbsoluteFSPath } from 'swagger-ui-dist';",
        "import { z } from 'zod';",
        "const later = await import('swagger-ui-dist');",
        'console.log(typeof getAbsoluteFSPath, later.getAbsoluteFSPath === getAbsoluteFSPath, ' +
          'z.string().parse("zod"));',
      ].join('\n'),
    );
    const program = await compile(p.entry, p);
    const code = (
      await Promise.all(
        (await readdir(p.outDir)).filter((f) => f.endsWith('.js')).map((f) => readFile(join(p.outDir, f), 'utf8')),
      )
    ).join('\n');
    t.regex(code, /__nodeRequire\("swagger-ui-dist"\)/);
    t.regex(code, /import\("swagger-ui-dist"\)/, 'the import() stays one');
    t.regex(code, /from "zod"/);
    // The named export comes through require, and import() finds the same module instance.
    t.deepEqual(await output(program), ['function true zod']);
  },
);
