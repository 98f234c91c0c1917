// The request deadline answers a request the servers behind the API leave waiting, and only such a one:
// time the client or ingest has (offTheClock) does not count, and a request whose caller left is never
// answered, or logged as unanswered, later.
import { once } from 'node:events';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { offTheClock, requestDeadline } from '../../../api/deadline.js';
import { recordingLogger, type LogRecord } from '../../support/recording-logger.js';

const DEADLINE_MS = 150;

/** A server whose one route is `handler` behind a deadline of DEADLINE_MS; its log lines are kept. */
async function serve(handler: express.RequestHandler): Promise<{ server: Server; port: number; logged: LogRecord[] }> {
  const log = recordingLogger();
  const logged = log.records;
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'test';
    res.locals.admitted = true;
    next();
  });
  app.use(requestDeadline(log, DEADLINE_MS));
  app.post('/', handler);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, logged };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'a request the servers leave waiting past the deadline is answered 503 service_unavailable with ' +
    'Retry-After, and logged',
  async (t) => {
    const { server, port, logged } = await serve(async (_req, res) => {
      await sleep(DEADLINE_MS * 3);
      if (!res.headersSent) res.status(201).end();
    });
    t.teardown(() => server.close());
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' });
    t.is(res.status, 503);
    t.is(((await res.json()) as { error: { code: string } }).error.code, 'service_unavailable');
    t.truthy(res.headers.get('retry-after'));
    t.deepEqual(logged, [
      {
        level: 'error',
        message: `had no answer within ${DEADLINE_MS / 1000} s (service_unavailable)`,
        fields: { request_id: 'test', method: 'POST', path: '/', status: 503 },
      },
    ]);
  },
);

test(
  'time off the clock does not count: a slow upload is answered by its handler, with a full ' + 'deadline after it',
  async (t) => {
    const { server, port, logged } = await serve(async (req, res) => {
      await offTheClock(res, async () => {
        for await (const _chunk of req);
      });
      await sleep(DEADLINE_MS / 2);
      res.status(201).end();
    });
    t.teardown(() => server.close());
    const req = request({ port, method: 'POST', path: '/', headers: { 'content-length': '2' } });
    req.write('a');
    await sleep(DEADLINE_MS * 2);
    req.end('b');
    const [res] = (await once(req, 'response')) as [{ statusCode: number }];
    t.is(res.statusCode, 201);
    t.deepEqual(logged, []);
  },
);

test(
  'a caller that leaves while its upload is off the clock is not answered, or logged as ' +
    'unanswered, when the handler goes on',
  async (t) => {
    let handlerStarted!: () => void;
    const started = new Promise<void>((r) => (handlerStarted = r));
    let handlerDone!: () => void;
    const done = new Promise<void>((r) => (handlerDone = r));
    const { server, port, logged } = await serve(async (req, res) => {
      await offTheClock(res, () => {
        // Not events.once: that would reject with the request's 'aborted' error.
        const closed = new Promise((resolve) => req.once('close', resolve));
        handlerStarted();
        return closed;
      });
      // What a handler does after its client has gone (removing the staged parts, say) takes a while.
      await sleep(DEADLINE_MS / 2);
      handlerDone();
    });
    t.teardown(() => server.close());
    const req = request({ port, method: 'POST', path: '/', headers: { 'content-length': '100' } });
    req.on('error', () => {});
    req.write('partial');
    await started;
    req.destroy();
    await done;
    await sleep(DEADLINE_MS * 2);
    t.deepEqual(logged, []);
  },
);
