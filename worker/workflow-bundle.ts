// The workflow bundles, built once ahead of the worker rather than by each worker at its start (webpack,
// some 3 s and a screenful of output). `npm start`, `npm test` and the Dockerfile build them into .build/
// before any worker starts; a worker finds its own there. Each is stamped with a hash of everything it can
// be made from (workflows/, src/, the lockfile): a worker whose sources changed since builds it again.
//
// Two bundles, as Temporal's OpenTelemetry guide builds them: a worker that traces (src/telemetry/
// tracing.ts) runs the one with the OpenTelemetry interceptors (workflows/tracing.ts), every other worker
// the plain one. A workflow's modules are evaluated afresh for each run, the interceptors' OpenTelemetry
// SDK with them: in a worker that does not trace, that was half of a first workflow task's CPU, for spans
// nobody collects. The interceptors only add headers to commands and spans to a sink, so a history replays
// with either bundle (test/workflow/replay.test.ts replays with both).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, writeBuildOutput } from '../src/build-output.js';
import { FAILURE_CONVERTER_PATH } from '../src/temporal/connection.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const workflowsPath = join(root, 'workflows', 'index.ts');

/** Which bundle: `traced` has Temporal's OpenTelemetry workflow interceptors (workflows/tracing.ts). */
export type BundleKind = 'plain' | 'traced';

const FILE_NAMES: Record<BundleKind, string> = { plain: 'workflow-bundle.js', traced: 'workflow-bundle-traced.js' };

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

/** A hash of every file the bundle can be made from, and of this one, which says how it is made. */
async function sourceHash(): Promise<string> {
  const files = [
    ...(await sources(join(root, 'workflows'))),
    ...(await sources(join(root, 'src'))),
    // Bundled too (bundleWorkflowCode's failureConverterPath), and not a .ts file.
    FAILURE_CONVERTER_PATH,
    join(root, 'package-lock.json'),
    join(root, 'worker', 'workflow-bundle.ts'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex');
}

/**
 * The path of a bundle of today's workflow code (the plain one unless said): the one in .build/ when its
 * stamp matches the sources, else a fresh one (written to a temporary file and renamed, so a reader never
 * sees half of it).
 */
export function ensureWorkflowBundle(kind: BundleKind = 'plain'): Promise<{ path: string; built: boolean }> {
  // One check per process and kind: callers in it share the first one (sources do not change under a process).
  let check = ensured.get(kind);
  if (!check) {
    check = ensure(kind).catch((err: unknown) => {
      ensured.delete(kind);
      throw err;
    });
    ensured.set(kind, check);
  }
  return check;
}

/** Both bundles, one after the other (each bundling is CPU work): what a build makes ahead of the workers. */
export async function ensureWorkflowBundles(): Promise<{ path: string; built: boolean }[]> {
  return [await ensureWorkflowBundle('plain'), await ensureWorkflowBundle('traced')];
}

let hashing: Promise<string> | undefined;
const ensured = new Map<BundleKind, Promise<{ path: string; built: boolean }>>();

async function ensure(kind: BundleKind): Promise<{ path: string; built: boolean }> {
  const name = FILE_NAMES[kind];
  const path = join(BUILD_DIR, name);
  hashing ??= sourceHash();
  const hash = await hashing;
  const stamp = await readFile(`${path}.sha256`, 'utf8').catch(() => '');
  if (stamp === hash) return { path, built: false };
  // The bundler is loaded only here: a process that finds the bundle current (npm start's) never loads it.
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const quiet = { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    // Temporal's OpenTelemetry interceptors, for the runs their starters trace (workflows/tracing.ts).
    workflowInterceptorModules: kind === 'traced' ? [join(root, 'workflows', 'tracing.ts')] : [],
    // The workflow's failures are written as the clients and workers write theirs (src/temporal/connection.ts).
    failureConverterPath: FAILURE_CONVERTER_PATH,
    ignoreModules: [],
    logger: quiet,
  });
  // The stamp after the bundle: a reader that sees today's stamp sees today's bundle.
  await writeBuildOutput(name, code);
  await writeBuildOutput(`${name}.sha256`, hash);
  return { path, built: true };
}
