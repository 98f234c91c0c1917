// The servers we build from source with `go install`, pinned, into a per-user cache outside the
// repository so that every clone (and CI on the same machine) builds them once.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { run } from './supervisor.js';

export interface GoBinary {
  name: string;
  /** What the README calls this version. */
  label: string;
  module: string;
  version: string;
}

// v1.5.1: later tags carry a `replace` directive in go.mod, which `go install pkg@version` refuses.
export const TEMPORAL_CLI: GoBinary = {
  name: 'temporal',
  label: 'v1.5.1',
  module: 'github.com/temporalio/cli/cmd/temporal',
  version: 'v1.5.1',
};

// MinIO tags releases as RELEASE.<date>, which is not semver: the module version is the pseudo-version of
// the tagged commit (07c3a429bfed is RELEASE.2025-09-07T16-13-09Z).
export const MINIO_SERVER: GoBinary = {
  name: 'minio',
  label: 'RELEASE.2025-09-07T16-13-09Z',
  module: 'github.com/minio/minio',
  version: 'v0.0.0-20250907161309-07c3a429bfed',
};

// The Temporal server itself and its SQL schema tool, from the server module of the same release the CLI
// embeds (v1.29.1): `npm run test:cluster` runs the service against it, with PostgreSQL persistence and
// mutual TLS, as a secured self-hosted cluster runs. (`go install` names each binary after its package.)
const TEMPORAL_SERVER_RELEASE = 'v1.29.1';
const fromServerModule = (name: string, pkg: string): GoBinary => ({
  name,
  label: TEMPORAL_SERVER_RELEASE,
  module: `go.temporal.io/server/${pkg}`,
  version: TEMPORAL_SERVER_RELEASE,
});
export const TEMPORAL_SERVER = fromServerModule('server', 'cmd/server');
export const TEMPORAL_SQL_TOOL = fromServerModule('sql', 'cmd/tools/sql');

export function cacheDir(env: NodeJS.ProcessEnv): string {
  return env.LOAN_REVIEW_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'loan-review');
}

export function binaryPath(env: NodeJS.ProcessEnv, b: GoBinary): string {
  return join(cacheDir(env), 'bin', `${b.name}-${b.label}`, b.name);
}

/** Returns the cached binary, building it first if needed; progress goes to `log`. */
export async function ensureGoBinary(
  env: NodeJS.ProcessEnv,
  b: GoBinary,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  const target = binaryPath(env, b);
  if (existsSync(target)) return target;
  const finalDir = join(target, '..');
  await mkdir(join(finalDir, '..'), { recursive: true });
  // Build into a private directory and rename: a concurrent `npm start` never runs half a binary.
  const buildDir = await mkdtemp(`${finalDir}.building-`);
  const started = Date.now();
  log(`building ${b.name} ${b.label} with go install (first run only; several minutes)`);
  let downloads = 0;
  const ticker = setInterval(() => {
    const secs = Math.round((Date.now() - started) / 1000);
    log(`  … still building ${b.name} (${secs}s, ${downloads} modules downloaded)`);
  }, 20_000);
  try {
    await run('go', ['install', `${b.module}@${b.version}`], {
      env: { ...env, GOBIN: buildDir, GOFLAGS: `${env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      signal,
      onOutput: (text) => (downloads += (text.match(/go: downloading/g) ?? []).length),
    });
  } catch (err) {
    await rm(buildDir, { recursive: true, force: true });
    throw signal?.aborted
      ? err
      : new Error(`go install ${b.module}@${b.version} failed: ${(err as Error).message.slice(-4000)}`);
  } finally {
    clearInterval(ticker);
  }
  try {
    await rename(buildDir, finalDir);
  } catch {
    // Someone else finished first; theirs is as good as ours.
    await rm(buildDir, { recursive: true, force: true });
  }
  log(`built ${b.name} in ${Math.round((Date.now() - started) / 1000)}s`);
  return target;
}
