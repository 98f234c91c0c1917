// A worker thread's entry, as JavaScript. Run compiled, the entry is compiled beside the service
// (scripts/compile.ts), in the directory of this module's own bundle. Under tsx (npm start, npm test) it
// is TypeScript, which a fresh thread can load only once tsx's loader is registered in it, and that loader
// cost each thread some 385 MiB at rest: two idle pdf.js threads grew the worker by 770 MiB, against
// 97 MiB with the entry compiled (docs/development.md). So under tsx it is compiled once per process with
// esbuild (some 100 ms) into .build/, named by a hash of what was compiled: a file there is never stale,
// and processes compiling at once write the same bytes to the same name.
import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { BUILD_DIR, writeBuildOutput } from '../build-output.js';

/**
 * The file URL a thread of `name` starts from: `name`.js beside this module when run compiled (an entry
 * of scripts/compile.ts's SERVICES under that name), else `source` compiled into .build/.
 */
export function threadEntry(name: string, source: URL): Promise<URL> {
  // One compile per process and entry; a failed one (no esbuild, .build/ not writable) is tried again next time.
  let entry = entries.get(name);
  if (!entry) {
    entry = locate(name, source).catch((err: unknown) => {
      entries.delete(name);
      throw err;
    });
    entries.set(name, entry);
  }
  return entry;
}

const entries = new Map<string, Promise<URL>>();

/**
 * A thread started from `name`'s entry (threadEntry) with `options`, without source maps. The services run
 * with --enable-source-maps (TypeScript lines in their traces), which a thread would inherit: every module
 * it loads then has its map read and kept, and pdf.js's are 8 MB of JSON, some 29 MiB of each pdf.js
 * thread's heap (45 MiB after loading pdf.js, against 16), marked again by each of its garbage
 * collections. What a thread's failure reports is its message; a stack from inside one names compiled lines.
 */
export async function startThread(
  name: string,
  source: URL,
  options: Omit<WorkerOptions, 'execArgv'> = {},
): Promise<Worker> {
  // The process's own flags are not passed on (a thread would inherit them): loaders and profilers are
  // the process's, and a thread's entry is JavaScript.
  return new Worker(await threadEntry(name, source), { ...options, execArgv: ['--no-enable-source-maps'] });
}

async function locate(name: string, source: URL): Promise<URL> {
  if (import.meta.url.endsWith('.js')) return new URL(`./${name}.js`, import.meta.url);
  // esbuild is loaded only here: a compiled worker never needs it.
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    // Packages stay imports, resolved from node_modules at run time as the sources' are.
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const code = outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild compiled the ${name} thread to nothing`);
  const file = `${name}.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const path = join(BUILD_DIR, file);
  const present = await access(path).then(
    () => true,
    () => false,
  );
  return pathToFileURL(present ? path : await writeBuildOutput(file, code));
}
