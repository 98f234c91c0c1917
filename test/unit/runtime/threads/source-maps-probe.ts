// A thread entry for thread-entry.test.ts: answers whether source maps are on in it.
import { parentPort } from 'node:worker_threads';

parentPort?.postMessage(process.sourceMapsEnabled);
