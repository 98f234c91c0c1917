// The API and the worker compiled to JavaScript ahead of their start: `npm start` and the
// Dockerfile run these instead of the TypeScript through tsx, whose loader transpiles every module again
// in each process. esbuild bundles each entry with our own modules (packages stay imports, resolved from
// node_modules at run time) into .build/, one directory below the repository's root like src/ and
// worker/, so that a module's `new URL('..', import.meta.url)` still names the root. The entries of the
// worker's threads (pdf.js, the working-document parser, extraction) are compiled beside the worker, where
// src/runtime/thread-entry.ts looks for them when run compiled. A stamp lists what the last build read,
// with a hash of it: a build whose inputs are unchanged is reused, one whose inputs changed is made again.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BUILD_DIR, writeBuildOutput } from '../src/build-output.js';
import { cjsPackages } from './cjs-packages.mjs';
import { BUNDLE_OPTIONS } from './compile-entry.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CompileTarget {
  /** Output name (without .js) → source file, relative to `root`. */
  entries: Record<string, string>;
  /** The repository (or project) root the sources and the lockfile are under. */
  root: string;
  /** Where the .js files, their source maps and the stamp go. */
  outDir: string;
  /** The stamp's file name in outDir. */
  stamp: string;
}

/** The service processes `npm start` and the image run. */
export const SERVICES: CompileTarget = {
  entries: {
    api: 'api/server.ts',
    worker: 'worker/main.ts',
    'pdf-thread': 'src/qc/reading/pdf-thread.ts',
    'marker-thread': 'src/working-document/marker-thread.ts',
    'extraction-thread': 'src/qc/extraction-thread.ts',
    'spawner-process': 'src/runtime/spawner-process.ts',
  },
  root: ROOT,
  outDir: BUILD_DIR,
  stamp: 'services.stamp.json',
};

const stampSchema = z.object({ hash: z.string(), inputs: z.array(z.string()) });

// Part of every hash: a change to how we compile makes earlier builds stale as a source change does.
// Splitting (compile-entry.mjs's BUNDLE_OPTIONS): the worker polls before loading its activities' chunk
// (worker/main.ts). The CommonJS-only packages are loaded with require() (cjs-packages.mjs, whose source
// is hashed too).
const OPTIONS = BUNDLE_OPTIONS;
const COMPILER = fileURLToPath(new URL('./cjs-packages.mjs', import.meta.url));

/** A hash of the compile options, the lockfile (the esbuild and package versions) and every input file. */
async function inputsHash(root: string, inputs: readonly string[]): Promise<string> {
  const hash = createHash('sha256')
    .update(JSON.stringify(OPTIONS))
    .update('\0')
    .update(await readFile(COMPILER))
    .update('\0');
  for (const file of [...inputs, 'package-lock.json'].sort()) {
    // A missing file (deleted since) hashes differently from any content, so the build is made again.
    const content = await readFile(resolve(root, file)).catch(() => undefined);
    hash
      .update(file)
      .update('\0')
      .update(content ?? '\0missing\0')
      .update('\0');
  }
  return hash.digest('hex');
}

/** The compiled file of each entry, and whether this call built them (false: the last build was current). */
export interface Compiled {
  files: Record<string, string>;
  built: boolean;
}

export async function ensureCompiled(target: CompileTarget): Promise<Compiled> {
  const files = Object.fromEntries(
    Object.keys(target.entries).map((name) => [name, join(target.outDir, `${name}.js`)]),
  );
  const stampPath = join(target.outDir, target.stamp);
  const stamp = stampSchema.safeParse(await readFile(stampPath, 'utf8').then(JSON.parse, () => undefined));
  if (stamp.success && stamp.data.hash === (await inputsHash(target.root, stamp.data.inputs)))
    return { files, built: false };

  // esbuild is loaded only here: a current build costs the hash of its inputs and nothing more.
  const { build } = await import('esbuild');
  const result = await build({
    ...OPTIONS,
    absWorkingDir: target.root,
    entryPoints: Object.fromEntries(
      Object.entries(target.entries).map(([name, source]) => [name, resolve(target.root, source)]),
    ),
    outdir: target.outDir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [cjsPackages(target.root)],
  });
  // Relative to the root, so that a checkout moved elsewhere still finds its build current.
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(target.root, resolve(target.root, file)));
  for (const output of result.outputFiles) {
    await writeBuildOutput(relative(target.outDir, output.path), output.contents, target.outDir);
  }
  // The stamp after the files: whoever sees today's stamp sees today's files. (A source saved while
  // esbuild ran is hashed as saved, unlike what was compiled: the next change to it builds again.)
  const hash = await inputsHash(target.root, inputs);
  await writeBuildOutput(target.stamp, JSON.stringify({ hash, inputs }), target.outDir);
  return { files, built: true };
}
