// Every request has an id: the caller's own `X-Request-Id` when it is one we can log safely, else one made
// here. It is answered on every response (errors, health and docs included) and is the `request_id` of
// the request's records in the log, so a caller quoting it to support finds them, and its own tracing id
// joins ours.
import type { Request, RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../src/telemetry/logger.js';

/**
 * What a caller's id may be: UUIDs, W3C trace ids, base64 and most tracing formats. No spaces or
 * control characters, so that it cannot forge or split a log line; anything else is replaced, never
 * refused (an id is for diagnosis, and a request should not fail over one).
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The id of the request this response answers. */
export function requestIdOf(res: Response): string {
  return (res.locals.requestId as string | undefined) ?? 'none';
}

/**
 * What each of the request's records in the log carries: its id, method and path. The path is without its
 * query: a cursor is long and says nothing a reader of the log needs.
 */
export function requestFields(
  req: Request,
  res: Response,
): { request_id: string; review_id?: string; method: string; path: string } {
  // The review a route names, or the one a create made.
  const reviewId = (req.params as Record<string, unknown> | undefined)?.review_id ?? res.locals.reviewId;
  return {
    request_id: requestIdOf(res),
    ...(typeof reviewId === 'string' ? { review_id: reviewId } : {}),
    method: req.method,
    path: req.originalUrl.split('?')[0] ?? '/',
  };
}

/** Gives the request its id, answers it, and logs one record per request when the response is finished. */
export function requestId(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get(REQUEST_ID_HEADER);
    const id = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const started = process.hrtime.bigint();
    // 'close' comes whether the answer was sent whole or the caller went away first.
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const fields = requestFields(req, res);
      log.info(`${fields.method} ${fields.path} ${res.statusCode} ${ms.toFixed(0)} ms`, {
        ...fields,
        status: res.statusCode,
        duration_ms: Math.round(ms),
        ...(res.writableFinished ? {} : { caller_left: true }),
      });
    });
    next();
  };
}
