// The inside of a working-document parser's thread (marker-parsing.ts): a reply to each request, one
// request at a time.
import { parentPort } from 'node:worker_threads';
import { parseWorkingDocument, parseWorkingDocumentFields } from './marker.js';
import type { ParseReply, ParseRequest } from './marker-parsing.js';

const port = parentPort;
if (!port) throw new Error('marker-thread.ts runs as a worker thread (see marker-parsing.ts)');

port.on('message', (request: ParseRequest) => {
  const reply: Promise<ParseReply> =
    request.kind === 'inspect'
      ? parseWorkingDocument(request.bytes, request.secrets).then((found) => ({ kind: 'inspect', found }))
      : parseWorkingDocumentFields(request.bytes).then((fields) => ({ kind: 'fields', fields: [...fields] }));
  void reply.then(
    (r) => port.postMessage(r),
    (err: unknown) =>
      port.postMessage({
        kind: 'failed',
        reason: err instanceof Error ? err.message : String(err),
      } satisfies ParseReply),
  );
});
