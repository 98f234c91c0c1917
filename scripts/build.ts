// `npm run build` (the Dockerfile runs it): builds what the API and the worker run from into .build/ ahead
// of them, so that a process whose .build/ is not writable (the image's) still finds it all: the workflow
// bundle (unless the one there is of today's sources) and the API, the worker and the pdf.js thread's
// entry compiled to JavaScript (scripts/compile.ts; reused when their sources did not change).
import { ensureCompiled, SERVICES } from './compile.js';
import { ensureWorkflowBundle } from '../worker/workflow-bundle.js';

const started = Date.now();
const [bundle, compiled] = await Promise.all([ensureWorkflowBundle(), ensureCompiled(SERVICES)]);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${bundle.built ? 'built' : 'up to date:'} ${bundle.path}`);
console.log(`${compiled.built ? 'built' : 'up to date:'} ${Object.values(compiled.files).join(', ')} (${seconds} s)`);
