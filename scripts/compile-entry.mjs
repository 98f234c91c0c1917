// The launchers (`npm start`'s scripts/start.ts, `npm test`'s scripts/test.ts) compiled to JavaScript for
// scripts/run.mjs, as the API and the worker are (scripts/compile.ts): through tsx, the launcher's own
// start cost some 0.3 s and as much CPU again while the servers started beside it (tsx's loader, then
// every module transpiled or looked up in its cache). Plain JavaScript, like run.mjs: it runs before any
// TypeScript can.
//
// A build is used only while it is of today's sources: a stamp beside it holds a hash of exactly what
// esbuild read (every file's content as compiled, not as found later), of how we compile (this module and
// cjs-packages.mjs), the lockfile (esbuild's version), tsconfig.json and the checkout's path. Any
// difference, or a file of the build missing, and the entry is compiled again (some 60 ms) before it runs.
// Output names carry a
// hash of their content and the stamp names the entry's, so that two launchers building at once never
// mix one build's entry with the other's stamp or chunks.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cjsPackages, REQUIRE_BANNER } from './cjs-packages.mjs';

const SELF = fileURLToPath(import.meta.url);
/** How we compile: hashed with the sources. */
const COMPILERS = [SELF, fileURLToPath(new URL('./cjs-packages.mjs', import.meta.url))];
/** This repository: its sources, lockfile and tsconfig.json, and its build beside the services' (.build/). */
const REPOSITORY = { root: resolve(dirname(SELF), '..'), outDir: resolve(dirname(SELF), '..', '.build', 'scripts') };
/** Hashed with the sources: what else decides the output. */
const ALSO_HASHED = ['package-lock.json', 'tsconfig.json'];

// Packages stay imports, resolved from node_modules when run (the CommonJS-only ones by require(),
// cjs-packages.mjs); a module imported with import() is a chunk of its own, loaded (with the packages it
// imports) only when it is, as it was through tsx. The services are bundled alike (scripts/compile.ts).
export const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  banner: { js: REQUIRE_BANNER },
};
const OPTIONS = { ...BUNDLE_OPTIONS, entryNames: '[name]-[hash]', chunkNames: 'chunk-[hash]' };

/**
 * The compiled entry's path when the build in `outDir` is of today's sources, else undefined.
 * Cheap: the stamp and each input read and hashed (a few ms), nothing loaded.
 */
export async function currentBuild(source, { root, outDir } = REPOSITORY) {
  const stampPath = join(outDir, `${basename(source, extname(source))}.stamp.json`);
  const stamp = await readFile(stampPath, 'utf8').then(JSON.parse, () => undefined);
  if (!stamp || typeof stamp.hash !== 'string' || typeof stamp.entry !== 'string' || !Array.isArray(stamp.inputs))
    return undefined;
  const contents = new Map();
  for (const input of stamp.inputs) {
    // A missing input (deleted since) makes the hash differ: built again.
    contents.set(input, await readFile(join(root, input)).catch(() => Buffer.from('\0missing\0')));
  }
  if ((await hashOf(root, contents)) !== stamp.hash) return undefined;
  // Every file of the build, the chunks it imports later too: one deleted (a cleaned .build/) builds again.
  if (!stamp.outputs?.every?.((file) => existsSync(join(outDir, file)))) return undefined;
  return join(outDir, stamp.entry);
}

/** Compiles `source` (and what it imports of ours) into `outDir`; returns the entry's path. */
export async function compile(source, { root, outDir } = REPOSITORY) {
  const { build } = await import('esbuild');
  const name = basename(source, extname(source));
  // What esbuild read, kept as read: the stamp's hash is of the compiled sources even if one is saved
  // again while the build runs (the next start then sees the difference and builds again).
  const contents = new Map();
  const result = await build({
    ...OPTIONS,
    absWorkingDir: root,
    entryPoints: { [name]: resolve(root, source) },
    outdir: outDir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // A module's import.meta.url (and dirname, filename) stay those of its source file, not the bundle's:
    // paths the code finds from it (the repository's root, the migrations) are the same as through tsx.
    define: {
      'import.meta.url': '__sourceUrl',
      'import.meta.dirname': '__sourceDirname',
      'import.meta.filename': '__sourceFilename',
    },
    plugins: [
      cjsPackages(root),
      {
        name: 'source-location',
        setup(b) {
          b.onLoad({ filter: /.*/, namespace: 'file' }, async ({ path }) => {
            const text = await readFile(path);
            contents.set(relative(root, path), text);
            if (!/\.[cm]?[jt]s$/.test(path)) return { contents: text, loader: 'default' };
            // On the first line, before the source's own: its line numbers stay those of the source map.
            const location =
              `const __sourceUrl = ${JSON.stringify(pathToFileURL(path).href)}, ` +
              `__sourceDirname = ${JSON.stringify(dirname(path))}, __sourceFilename = ${JSON.stringify(path)};`;
            return { contents: location + text.toString('utf8'), loader: 'default' };
          });
        },
      },
    ],
  });
  const outputs = [];
  let entry;
  for (const output of result.outputFiles) {
    const file = relative(outDir, output.path);
    outputs.push(file);
    await writeWhole(output.path, output.contents);
  }
  // Each module imported with import() is an entry point of esbuild's too: ours is the one of `source`.
  for (const [path, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint && resolve(root, meta.entryPoint) === resolve(root, source))
      entry = relative(outDir, resolve(root, path));
  }
  if (!entry) throw new Error(`esbuild named no entry for ${source}`);
  // The stamp last: whoever reads it finds every file it names.
  const stamp = { hash: await hashOf(root, contents), inputs: [...contents.keys()], entry, outputs };
  await writeWhole(join(outDir, `${name}.stamp.json`), JSON.stringify(stamp));
  return join(outDir, entry);
}

/** A hash of the given inputs' contents with everything else that decides the output. */
async function hashOf(root, contents) {
  const hash = createHash('sha256').update(JSON.stringify(OPTIONS)).update('\0').update(root).update('\0');
  for (const file of COMPILERS) hash.update(await readFile(file)).update('\0');
  for (const file of ALSO_HASHED)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(join(root, file)).catch(() => '\0missing\0'))
      .update('\0');
  for (const file of [...contents.keys()].sort())
    hash.update(file).update('\0').update(contents.get(file)).update('\0');
  return hash.digest('hex');
}

/** Written to a file of its own and renamed: a reader (or a launcher building at once) never sees half. */
async function writeWhole(path, data) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}
