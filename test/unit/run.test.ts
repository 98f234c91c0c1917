// scripts/run.mjs, which `npm start` and `npm test` go through: it installs the locked dependencies when
// none are installed or package-lock.json's content changed since, never for a lockfile that is only newer
// (git checks files out with the time of the checkout: a new worktree whose node_modules is a link to
// another's would empty that one), and then runs the entry compiled. Shown in a copy of the scripts in a
// temporary directory, with an `npm` of the test's own on PATH that records its calls.
import test from 'ava';
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../scripts/stack/stack.js';

const execute = promisify(execFile);

interface Clone {
  root: string;
  /** Runs scripts/run.mjs on the entry; its output, and the calls of npm it made. */
  run: () => Promise<{ output: string; npm: string[] }>;
}

async function clone(t: { teardown: (fn: () => Promise<void>) => void }): Promise<Clone> {
  const root = await mkdtemp(join(tmpdir(), 'loan-review-run-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'scripts'));
  for (const file of ['run.mjs', 'compile-entry.mjs', 'cjs-packages.mjs'])
    await copyFile(join(REPO_ROOT, 'scripts', file), join(root, 'scripts', file));
  await writeFile(join(root, 'scripts', 'hello.ts'), "const word: string = 'ran';\nconsole.log(word);\n");
  await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  await writeFile(join(root, 'tsconfig.json'), '{}\n');
  // What `npm ci` leaves: npm's record of the install, and esbuild (the repository's, linked).
  const bin = join(root, 'bin');
  await mkdir(bin);
  await writeFile(
    join(bin, 'npm'),
    `#!/bin/sh\necho "$*" >> "${join(root, 'npm-calls')}"\nmkdir -p node_modules\nln -sfn ` +
      `"${join(REPO_ROOT, 'node_modules', 'esbuild')}" node_modules/esbuild\ntouch node_modules/.package-lock.json\n`,
  );
  await chmod(join(bin, 'npm'), 0o755);
  const run = async () => {
    const { stdout } = await execute(process.execPath, ['scripts/run.mjs', 'scripts/hello.ts'], {
      cwd: root,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME },
    });
    const calls = existsSync(join(root, 'npm-calls'))
      ? (await readFile(join(root, 'npm-calls'), 'utf8')).trim().split('\n')
      : [];
    await rm(join(root, 'npm-calls'), { force: true });
    return { output: stdout, npm: calls };
  };
  return { root, run };
}

/** Sets a file's modification time `seconds` from now. */
const age = (file: string, seconds: number) => utimes(file, new Date(), new Date(Date.now() + seconds * 1000));

test('a fresh clone installs the locked dependencies, then runs the entry compiled', async (t) => {
  const c = await clone(t);
  const first = await c.run();
  t.deepEqual(first.npm, ['ci --no-fund --no-audit']);
  // Compiled: this clone has no tsx to run it with.
  t.regex(first.output, /ran/);
  t.true(existsSync(join(c.root, '.build', 'scripts', 'hello.stamp.json')));
  const second = await c.run();
  t.deepEqual(second.npm, [], 'installed: nothing to do');
  t.regex(second.output, /ran/);
});

test('a lockfile checked out again (newer, the same content) installs nothing; a changed one installs', async (t) => {
  const c = await clone(t);
  await c.run();
  await age(join(c.root, 'package-lock.json'), 60);
  t.deepEqual((await c.run()).npm, [], 'only the time changed');
  await writeFile(join(c.root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
  await age(join(c.root, 'package-lock.json'), 120);
  t.deepEqual((await c.run()).npm, ['ci --no-fund --no-audit'], 'the content changed');
  await age(join(c.root, 'package-lock.json'), 180);
  t.deepEqual((await c.run()).npm, [], 'installed from this content');
});

test('an install made before the content was recorded is judged by time, as npm records it', async (t) => {
  const c = await clone(t);
  await c.run();
  await rm(join(c.root, 'node_modules', '.loan-review-installed-lock.sha256'));
  t.deepEqual((await c.run()).npm, [], 'older lockfile: current, and its content recorded');
  await rm(join(c.root, 'node_modules', '.loan-review-installed-lock.sha256'));
  await age(join(c.root, 'package-lock.json'), 60);
  t.deepEqual((await c.run()).npm, ['ci --no-fund --no-audit'], 'newer lockfile, nothing recorded: installed');
});
