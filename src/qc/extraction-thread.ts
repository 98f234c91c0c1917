// The inside of an extraction thread (extraction-threads.ts): one file's reading in, its logical
// documents out; a reply to each request, one request at a time.
import { parentPort } from 'node:worker_threads';
import { documentsOfReading } from './logical-documents.js';
import type { ExtractionReply, ExtractionRequest } from './extraction-threads.js';

const port = parentPort;
if (!port) throw new Error('extraction-thread.ts runs as a worker thread (see extraction-threads.ts)');

port.on('message', (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = { kind: 'documents', documents: documentsOfReading(request.filename, request.reading) };
  } catch (err) {
    reply = { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
