// What is refused before a request reaches Express, or while its body arrives: malformed HTTP that Node's
// parser rejects itself (a bad chunk size, Content-Length beside chunked, headers or a request line past
// their limits), a URL longer than the API reads, and a body that stalls. Each is answered in the error
// envelope with an X-Request-Id where the socket still takes an answer, as every other refusal is.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError, sendError } from './errors.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import type { Logger } from '../src/telemetry/logger.js';

/** The longest request target (path and query) read; longer is 414. */
export const MAX_URL_BYTES = 8 * 1024;

/** The most header bytes (request line included) Node reads; more is 431 (414 when the request line alone is). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** A body that brings no byte for this long is refused 408… */
export const BODY_IDLE_MS = 30_000;
/** …and so is one that brings less than this many bytes in any such window (1 KiB/s). */
export const BODY_MIN_BYTES_PER_WINDOW = 30 * 1024;

/** How often a body's progress is looked at. */
const TICK_MS = 1_000;

const URL_TOO_LONG = `The request URL is longer than the ${MAX_URL_BYTES} bytes the API reads.`;

/** How long a refused connection is still read (and what it sends discarded) before it is closed. */
const LINGER_MS = 2_000;

/** The answer to a parser error: status and message. */
function refusalOf(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): {
  status: 400 | 408 | 414 | 431;
  message: string;
} {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // The request line alone past the limit: it is the URL that is too long.
    const raw = err.rawPacket;
    const lineEnds = raw ? raw.indexOf('\r\n') : -1;
    if (raw && (lineEnds < 0 || lineEnds > MAX_HEADER_BYTES)) return { status: 414, message: URL_TOO_LONG };
    return { status: 431, message: `The request headers are larger than the ${MAX_HEADER_BYTES} bytes the API reads.` };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    return { status: 408, message: 'The request did not arrive in time.' };
  }
  return {
    status: 400,
    message: 'The request is not well-formed HTTP/1.1 (its framing, a header or the request line).',
  };
}

/**
 * Answers malformed HTTP in the envelope (Node's own answer is a bare status line), then reads and drops
 * what the client still sends for a moment before closing: closing at once with its bytes unread resets
 * the connection, and the client never sees the answer.
 */
export function answerClientErrors(server: Server, log: Logger): void {
  /** Connections answered already: the parser errs again on what still arrives, which is dropped. */
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    // A connection reset or closed by the client: no one to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const { status, message } = refusalOf(err);
    const id = randomUUID();
    const body = JSON.stringify({ error: { code: 'invalid_request', message } });
    log.info(`refused before routing: ${status} (${err.code ?? err.message})`, { request_id: id, status });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${id}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    socket.on('data', () => {}).resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

const STATUS_TEXT = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
} as const;

/** 414 for a request target longer than MAX_URL_BYTES that Node's header limit let through. */
export const urlLength: RequestHandler = (req, _res, next) => {
  if (Buffer.byteLength(req.originalUrl) > MAX_URL_BYTES) {
    next(new ApiError('invalid_request', 414, URL_TOO_LONG));
    return;
  }
  next();
};

/**
 * Watches a request's body as it arrives: one that brings no byte for BODY_IDLE_MS, or fewer than
 * BODY_MIN_BYTES_PER_WINDOW in such a window, is answered 408 and the request destroyed, which makes the
 * upload parser discard what it staged. Time the API itself holds the body back (its reader waiting on
 * storage) does not count against the client. Requests without a body are not watched.
 */
export function bodyStalls(log: Logger): RequestHandler {
  const idleMs = BODY_IDLE_MS;
  const minBytes = BODY_MIN_BYTES_PER_WINDOW;
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody || req.complete) return next();
    const socket = req.socket;
    /** The bytes read by each tick of the window so far (the first is its start). */
    let samples: { at: number; bytes: number }[] = [];
    const timer = setInterval(() => {
      if (req.complete || res.headersSent) return stop();
      const now = Date.now();
      // Bytes read but not yet taken by the body's reader: the API is the one waiting; watch afresh after.
      if (req.readableLength > 0 || req.isPaused()) {
        samples = [];
        return;
      }
      samples.push({ at: now, bytes: socket.bytesRead });
      // The window is the last idleMs: the newest sample at least that old is its start.
      while (samples.length > 1 && samples[1]!.at <= now - idleMs) samples.shift();
      const start = samples[0]!;
      if (now - start.at < idleMs) return;
      const arrived = socket.bytesRead - start.bytes;
      if (arrived >= minBytes) return;
      stop();
      const error = new ApiError(
        'invalid_request',
        408,
        `The request body stalled: ${arrived} bytes in the last ${Math.round(idleMs / 1000)} s (at ` +
          `least ${minBytes} are needed).`,
      );
      res.setHeader('Connection', 'close');
      sendError(req, res, error, log, 'body stalled');
      // The body's reader sees the request fail and removes what it staged.
      res.once('finish', () => req.destroy(new Error('request body stalled')));
    }, TICK_MS);
    timer.unref();
    const stop = () => clearInterval(timer);
    res.once('close', stop);
    next();
  };
}
