// Debian packages the stack installs when absent and we are root (PostgreSQL, tesseract): apt-get as a
// step of starting, killed with the stack if it is stopped meanwhile (supervisor.ts).
import { run } from './supervisor.js';

export async function aptInstall(
  env: NodeJS.ProcessEnv,
  packages: readonly string[],
  signal?: AbortSignal,
): Promise<void> {
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env: aptEnv, signal });
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env: aptEnv, signal });
}
