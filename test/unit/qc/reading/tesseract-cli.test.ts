// The CPU time a tesseract run is held to is the process's own, read from /proc: it grows with work done,
// not with time passed.
import test from 'ava';
import { spawn } from 'node:child_process';
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
