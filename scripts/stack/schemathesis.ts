// Schemathesis (property-based testing of the API against its own OpenAPI document), pinned, installed
// from PyPI into a virtual environment in the same per-user cache as the Go-built servers: every clone
// installs it once, and `npm test` needs nothing installed before it but Python 3.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cacheDir } from './go-binaries.js';

export const SCHEMATHESIS_VERSION = '4.32.5';

async function run(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const [code] = (await once(child, 'close').catch(() => [null])) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4000)}`);
  return output;
}

/**
 * Python 3.11.0–3.11.7 and 3.12.0–3.12.1 raise "SystemError: AST constructor recursion depth mismatch"
 * from ast.parse deep in a call stack (CPython gh-106905), which Hypothesis does when it describes a
 * filter: Schemathesis's coverage phase then stops with a runtime error. Any other 3.10+ will do.
 */
export function pythonWithoutAstBug([major, minor, patch]: number[]): boolean {
  if (major !== 3 || minor === undefined || patch === undefined || minor < 10) return false;
  if (minor === 11) return patch >= 8;
  if (minor === 12) return patch >= 2;
  return true;
}

/** A Python on this machine that Schemathesis can run on: the PATH's, then pyenv's installed versions. */
async function findPython(env: NodeJS.ProcessEnv): Promise<{ path: string; version: string }> {
  const candidates = ['python3.13', 'python3.14', 'python3.12', 'python3', 'python3.10', 'python3.11'];
  const pyenvVersions = join(env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenvVersions)) {
    for (const v of (await readdir(pyenvVersions)).sort().reverse())
      candidates.push(join(pyenvVersions, v, 'bin', 'python3'));
  }
  const seen: string[] = [];
  for (const candidate of candidates) {
    let version: string;
    try {
      version = (await run(candidate, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'])).trim();
    } catch {
      continue;
    }
    seen.push(`${candidate} ${version}`);
    if (pythonWithoutAstBug(version.split('.').map(Number))) return { path: candidate, version };
  }
  throw new Error(
    `Schemathesis needs Python 3.10, 3.11.8+, 3.12.2+ or 3.13+ (earlier 3.11 and 3.12 releases break ` +
      `it); found ${seen.join(', ') || 'no Python'}`,
  );
}

/** The command (a Python and its arguments) that runs the pinned Schemathesis, installing it first if needed. */
export async function ensureSchemathesis(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<string[]> {
  const root = join(cacheDir(env), 'python');
  const installed = existsSync(root)
    ? (await readdir(root)).filter((d) => d.startsWith(`schemathesis-${SCHEMATHESIS_VERSION}-py`)).sort()
    : [];
  // Run as a module of the environment's own Python: a virtual environment moved after it was made
  // still works that way (its scripts' first lines would name the old place).
  const moduleOf = (dir: string) => [join(root, dir, 'bin', 'python'), '-m', 'schemathesis.cli'];
  if (installed.length > 0) return moduleOf(installed.at(-1)!);
  const python = await findPython(env);
  const name = `schemathesis-${SCHEMATHESIS_VERSION}-py${python.version}`;
  await mkdir(root, { recursive: true });
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI for Python ${python.version} (first run only)`);
  // Made in a private directory and renamed: a concurrent install never sees half of one.
  const buildDir = await mkdtemp(join(root, `${name}.building-`));
  try {
    await run(python.path, ['-m', 'venv', buildDir]);
    await run(join(buildDir, 'bin', 'python'), [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `schemathesis==${SCHEMATHESIS_VERSION}`,
    ]);
    await rename(buildDir, join(root, name));
  } catch (err) {
    await rm(buildDir, { recursive: true, force: true });
    // Someone else finished first; theirs is as good as ours.
    if (!existsSync(join(root, name, 'bin', 'python'))) throw err;
  }
  return moduleOf(name);
}
