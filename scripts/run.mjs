// `npm start` and `npm test` on a fresh clone: installs the locked dependencies first when they are
// missing or package-lock.json changed since they were installed, then runs the TypeScript entry in this
// same process, so that signals sent to `npm start` reach it: compiled to JavaScript
// (scripts/compile-entry.mjs; built again first when its sources changed), through tsx only when it
// cannot be compiled. Plain JavaScript: it must run before anything is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/run.mjs <entry.ts> [arguments]');
  process.exit(2);
}

// npm's own record of its last install is node_modules/.package-lock.json: a package-lock.json newer than
// it may have changed since. Only may: git gives every file it checks out (a new worktree's too) the time
// of the checkout, so the lockfile's content is compared with what the last install here was of (a hash
// kept beside npm's record) before the dependencies are installed again. Needlessly is not harmless: with
// node_modules shared between worktrees through a link, `npm ci` empties it under the others' feet.
const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
const installedFrom = join(root, 'node_modules', '.loan-review-installed-lock.sha256');
const lockHash = createHash('sha256').update(readFileSync(lock)).digest('hex');
const newer = existsSync(installed) && statSync(lock).mtimeMs > statSync(installed).mtimeMs;
const sameContent = existsSync(installedFrom) && readFileSync(installedFrom, 'utf8') === lockHash;
if (!existsSync(installed) || (newer && !sameContent)) {
  console.log('# installing the locked dependencies (npm ci): the first run of a clone, or package-lock.json changed');
  const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-fund', '--no-audit'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (npm.status !== 0) process.exit(npm.status ?? 1);
}
// What is installed now is of this lockfile (just installed, or judged current above).
if (!sameContent) writeFileSync(installedFrom, lockHash);

// Loaded after the install: building needs esbuild.
const { compile, currentBuild } = await import('./compile-entry.mjs');
let compiled;
try {
  compiled = (await currentBuild(resolve(entry))) ?? (await compile(resolve(entry)));
} catch (err) {
  // tsx reports a syntax error where it is, or runs what esbuild alone could not build.
  console.error(`# ${entry} could not be compiled (${err.message.split('\n')[0]}): running it through tsx`);
}

// The entry sees the arguments as if it had been started itself: argv[1] is its path.
process.argv.splice(1, 2, resolve(entry));
if (compiled) {
  // Its stack traces name the TypeScript lines (the source maps are read only for a trace).
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(resolve(entry)).href);
}
