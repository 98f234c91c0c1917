// The CPU time a tesseract run is held to is the process's own, read from /proc: it grows with work done,
// not with time passed. The page images it reads leave nothing behind.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScript } from '../../../support/script-process.js';
import { cpuTimeMs } from '../../../../src/qc/reading/tesseract-cli.js';

test('a process that works gains CPU time; one that sleeps does not; a process that is gone has none', async (t) => {
  if (process.platform !== 'linux') return t.pass('/proc is Linux’s');
  const sleeper = spawn('sleep', ['5']);
  const worker = spawn(process.execPath, ['-e', 'const end = Date.now() + 1500; while (Date.now() < end) {}']);
  try {
    await new Promise((r) => setTimeout(r, 1200));
    t.true(cpuTimeMs(sleeper.pid!)! < 100, `sleeping: ${cpuTimeMs(sleeper.pid!)} ms`);
    t.true(cpuTimeMs(worker.pid!)! > 0, `working: ${cpuTimeMs(worker.pid!)} ms`);
  } finally {
    sleeper.kill('SIGKILL');
    worker.kill('SIGKILL');
  }
  t.is(cpuTimeMs(2 ** 22 + 7), undefined);
});

test('the folder of page images tesseract reads goes with the process that made it', async (t) => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'ocr-folder-'));
  try {
    // A process that sends one page image to tesseract (whether the binary is there or not) and ends.
    const script = `
      import { tesseractOrientation } from ${JSON.stringify(new URL('../../../../src/qc/reading/tesseract-cli.ts', import.meta.url).href)};
      import { readdirSync } from 'node:fs';
      await tesseractOrientation({ grey: new Uint8Array(64 * 64).fill(255), width: 64, height: 64 }, 5_000);
      console.log(readdirSync(process.env.TMPDIR).join(','));
    `;
    const { stdout, stderr, code } = await runScript(script, { env: { ...process.env, TMPDIR: tmp } });
    t.is(code, 0, stderr);
    t.regex(stdout, /loan-review-ocr-pages-/, 'made while it ran');
    const left = (await readdir(tmp)).filter((name) => name.startsWith('loan-review-ocr-pages-'));
    t.deepEqual(left, [], 'removed when it ended');
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});
