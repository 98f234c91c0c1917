// `npm run build` (the Dockerfile runs it): builds what the API and the worker run from into .build/ ahead
// of them, so that a process whose .build/ is not writable (the image's) still finds it all: the workflow
// bundles, plain and traced (unless the ones there are of today's sources), and the API, the worker and
// the pdf.js thread's entry compiled to JavaScript (scripts/compile.ts; reused when their sources did not
// change).
import { ensureCompiled, SERVICES } from './compile.js';
import { ensureWorkflowBundles } from '../worker/workflow-bundle.js';

const started = Date.now();
const [bundles, compiled] = await Promise.all([ensureWorkflowBundles(), ensureCompiled(SERVICES)]);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
for (const bundle of bundles) console.log(`${bundle.built ? 'built' : 'up to date:'} ${bundle.path}`);
console.log(`${compiled.built ? 'built' : 'up to date:'} ${Object.values(compiled.files).join(', ')} (${seconds} s)`);
