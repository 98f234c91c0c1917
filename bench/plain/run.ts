// How the benchmarks run a plain tool (pdftotext, the tesseract CLI): started by a small helper process
// (src/runtime/spawner.ts), as the worker starts tesseract, not forked from the benchmark's own process:
// that process holds pdf.js threads and the packages, and a fork of it costs tens of milliseconds a run,
// which would be charged to the floor (a shell starts `pdftotext` over these files several times faster).
import { spawnProcess } from '../../src/runtime/spawner.js';

/** `command args` with `env`: its stdout, or a rejection naming its exit status and stderr. */
export async function runPlain(command: string, args: readonly string[], env = process.env): Promise<string> {
  const out: Uint8Array[] = [];
  let err = '';
  const child = await spawnProcess(command, args, env, {
    stdout: (chunk) => out.push(chunk),
    stderr: (chunk) => {
      if (err.length < 4096) err += Buffer.from(chunk).toString('utf8');
    },
  });
  const { code, signal } = await child.closed;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${err.trim()}`);
  return Buffer.concat(out).toString('utf8');
}
