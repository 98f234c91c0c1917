// The pdf.js thread's entry, as JavaScript. Run compiled, pdf-thread.js sits beside this module. Under tsx
// (npm start, npm test) it is TypeScript, which a fresh thread can load only once tsx's loader is
// registered in it, and that loader cost each thread some 385 MiB at rest: two idle threads grew the
// worker by 770 MiB, against 97 MiB with the entry compiled (docs/development.md). So under tsx it is
// compiled once per process with esbuild (some 100 ms) into .build/, named by a hash of what was
// compiled: a file there is never stale, and processes compiling at once write the same bytes to the
// same name.
import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_DIR, writeBuildOutput } from '../../build-output.js';

const compiled = new URL('./pdf-thread.js', import.meta.url);
const source = new URL('./pdf-thread.ts', import.meta.url);

/** The file URL a pdf.js thread starts from. */
export function pdfThreadEntry(): Promise<URL> {
  // One compile per process; a failed one (no esbuild, .build/ not writable) is tried again next time.
  entry ??= locate().catch((err: unknown) => {
    entry = undefined;
    throw err;
  });
  return entry;
}

let entry: Promise<URL> | undefined;

async function locate(): Promise<URL> {
  if (import.meta.url.endsWith('.js')) return compiled;
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
  if (!code) throw new Error('esbuild compiled the pdf.js thread to nothing');
  const name = `pdf-thread.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const path = join(BUILD_DIR, name);
  const present = await access(path).then(() => true, () => false);
  return pathToFileURL(present ? path : await writeBuildOutput(name, code));
}
