// `npm run build` (the Dockerfile runs it): builds what the worker runs from into .build/ ahead of it, so
// that a worker whose .build/ is not writable (the image's) still finds both: the workflow bundle
// (unless the one there is of today's sources) and the pdf.js thread's entry compiled to JavaScript.
import { pdfThreadEntry } from '../src/qc/reading/pdf-thread-entry.js';
import { ensureWorkflowBundle } from './workflow-bundle.js';

const started = Date.now();
const [{ path, built }, thread] = await Promise.all([ensureWorkflowBundle(), pdfThreadEntry()]);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${built ? 'built' : 'up to date:'} ${path}; pdf.js thread: ${thread.pathname} (${seconds} s)`);
