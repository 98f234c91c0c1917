// `npm run build:workflows` (the Dockerfile runs it): builds the workflow bundle into .build/ unless the
// one there is of today's sources.
import { ensureWorkflowBundle } from './workflow-bundle.js';

const started = Date.now();
const { path, built } = await ensureWorkflowBundle();
console.log(`${built ? 'built' : 'up to date:'} ${path} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
