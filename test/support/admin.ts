// The operators' CLI (`npm run admin -- …`) as a test runs it: against the suite's stack, answering JSON.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stack } from './stack.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the CLI with these arguments (and `env` over the stack's); resolves to its exit code and output. */
export async function runAdmin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', ...args],
      { cwd: root, env: { ...stack.serviceEnv, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs a command that must succeed; its `--json` answer. */
export async function admin(...args: string[]): Promise<unknown> {
  const run = await runAdmin([...args, '--json']);
  if (run.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
