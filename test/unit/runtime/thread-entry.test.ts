// A thread (the pdf.js reader's, the working-document parser's) starts from JavaScript, never through
// tsx's loader (some 385 MiB a thread at rest): under tsx its entry is compiled into .build/, named by a
// hash of the compiled code.
import test from 'ava';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR } from '../../../src/build-output.js';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { startThread, threadEntry } from '../../../src/runtime/thread-entry.js';

const pdfThreadEntry = () =>
  threadEntry('pdf-thread', new URL('../../../src/qc/reading/pdf-thread.ts', import.meta.url));

test(
  'under tsx the entry is compiled JavaScript in .build/, named by its content, and imports no ' + 'TypeScript',
  async (t) => {
    const entry = await pdfThreadEntry();
    const path = fileURLToPath(entry);
    t.is(dirname(path), BUILD_DIR);
    const code = await readFile(path);
    const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
    t.is(basename(path), `pdf-thread.${hash}.mjs`);
    // The thread's own modules are bundled in; only packages remain as imports (pdf.js's a dynamic one,
    // src/qc/reading/pdfjs.ts).
    t.notRegex(code.toString(), /(from\s+|import\()["'][^"']*\.(ts|js)["']/);
    t.regex(code.toString(), /from\s+["']unpdf["']/);
    t.regex(code.toString(), /import\(["']pdfjs-dist\//);
  },
);

test('the entry is compiled once per process: every thread starts from the same file', async (t) => {
  t.is((await pdfThreadEntry()).href, (await pdfThreadEntry()).href);
});

test('a thread starts without source maps, though the process runs with them and a plain thread inherits them', async (t) => {
  const probe = new URL('./threads/source-maps-probe.ts', import.meta.url);
  const answer = async (thread: Worker) => {
    const [enabled] = (await once(thread, 'message')) as [boolean];
    await thread.terminate();
    return enabled;
  };
  t.true(process.sourceMapsEnabled, 'tests run with source maps (tsx), as the services do (--enable-source-maps)');
  t.true(await answer(new Worker(await threadEntry('source-maps-probe', probe))), 'inherited by a plain thread');
  t.false(await answer(await startThread('source-maps-probe', probe)));
});
