// The workflow bundle, built once ahead of the worker rather than by each worker at its start (webpack,
// some 3 s and a screenful of output). `npm start`, `npm test` and the Dockerfile build it into .build/
// before any worker starts; a worker finds it there. The bundle is stamped with a hash of everything it
// can be made from (workflows/, src/, the lockfile): a worker whose sources changed since builds it again.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, writeBuildOutput } from '../src/build-output.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const workflowsPath = join(root, 'workflows', 'index.ts');
export const WORKFLOW_BUNDLE_PATH = join(BUILD_DIR, 'workflow-bundle.js');
const stampPath = `${WORKFLOW_BUNDLE_PATH}.sha256`;

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

/** A hash of every file the bundle can be made from. */
async function sourceHash(): Promise<string> {
  const files = [
    ...(await sources(join(root, 'workflows'))),
    ...(await sources(join(root, 'src'))),
    join(root, 'package-lock.json'),
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
 * The path of a bundle of today's workflow code: the one in .build/ when its stamp matches the sources,
 * else a fresh one (written to a temporary file and renamed, so a reader never sees half of it).
 */
export function ensureWorkflowBundle(): Promise<{ path: string; built: boolean }> {
  // One check per process: callers in it share the first one (sources do not change under a process).
  ensured ??= ensure().catch((err: unknown) => {
    ensured = undefined;
    throw err;
  });
  return ensured;
}

let ensured: Promise<{ path: string; built: boolean }> | undefined;

async function ensure(): Promise<{ path: string; built: boolean }> {
  const hash = await sourceHash();
  const stamp = await readFile(stampPath, 'utf8').catch(() => '');
  if (stamp === hash) return { path: WORKFLOW_BUNDLE_PATH, built: false };
  // The bundler is loaded only here: a process that finds the bundle current (npm start's) never loads it.
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const quiet = { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    // Temporal's OpenTelemetry interceptors, for the runs their starters trace (workflows/tracing.ts).
    workflowInterceptorModules: [join(root, 'workflows', 'tracing.ts')],
    ignoreModules: [],
    logger: quiet,
  });
  // The stamp after the bundle: a reader that sees today's stamp sees today's bundle.
  await writeBuildOutput('workflow-bundle.js', code);
  await writeBuildOutput('workflow-bundle.js.sha256', hash);
  return { path: WORKFLOW_BUNDLE_PATH, built: true };
}
