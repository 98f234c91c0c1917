// .build/: what is made from the sources ahead of use (the workflow bundle, the pdf.js thread's entry),
// git-ignored, at the repository's root so that what is built there resolves packages from its
// node_modules like the sources do.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILD_DIR = join(fileURLToPath(new URL('..', import.meta.url)), '.build');

/**
 * Writes a file into .build/ (or `dir`) whole or not at all: to a temporary file of this process's own, then
 * renamed, so that a reader (or another process building the same file at once) never sees half of it.
 */
export async function writeBuildOutput(
  name: string,
  contents: string | Uint8Array,
  dir: string = BUILD_DIR,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
  return path;
}
