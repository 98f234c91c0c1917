// Every request is answered within a deadline, whatever the servers behind it do. A stalled Postgres (or
// Temporal) holds a query or a call on an open connection for as long as the stall lasts; the request
// would hang with it. Past the deadline the caller gets 503 and Retry-After instead: `auth_unavailable`
// while its key was still being looked up or its request counted, `service_unavailable` after. The
// handler may still finish later; its answer is then dropped (a create or an addition answered so is
// never sent: the route checks before it hands it to the review's workflow). Three waits are off the
// clock: receiving a body, JSON or multipart (the client's time, watched by bodyStalls instead), a create's
// or addition's wait for its workflow to take it (bounded by its own accept time, api/review-workflow.ts),
// and ingest once the workflow has taken it (fetching source URLs and unpacking run under their own
// limits, and a big package needs them).
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../src/telemetry/logger.js';
import { ApiError, sendError } from './errors.js';
import { admitted } from './rate-limit.js';

/** How long a request may wait on the servers behind the API, receiving its upload excepted. */
export const REQUEST_DEADLINE_MS = 9_000;

/** The request's clock: stopped while the client or ingest has the time, started afresh after. */
interface Clock {
  timer: NodeJS.Timeout | undefined;
  /** The response closed (answered, or its caller left): no deadline is armed again. */
  closed: boolean;
  arm(): void;
}

export function requestDeadline(log: Logger, ms = REQUEST_DEADLINE_MS): RequestHandler {
  return (req, res, next) => {
    const expire = () => {
      clock.timer = undefined;
      if (res.headersSent) return;
      const error = admitted(res)
        ? new ApiError(
            'service_unavailable',
            503,
            'The service is temporarily unavailable; retry shortly (with the same Idempotency-Key for a create).',
          )
        : ApiError.of('auth_unavailable', 'Authentication is temporarily unavailable; retry shortly.');
      // Logged with an id the client is given, as a 500 is: an operator looks for the stalled server.
      sendError(req, res, error, log, `had no answer within ${ms / 1000} s (${error.code})`);
    };
    const clock: Clock = {
      timer: undefined,
      closed: false,
      arm() {
        if (clock.closed) return;
        clock.timer = setTimeout(expire, ms);
        clock.timer.unref();
      },
    };
    res.locals.deadline = clock;
    clock.arm();
    // 'close' follows 'finish' on every response, and comes alone when the caller goes away first.
    // A caller that left mid-upload closes the response while the upload is off the clock: the clock
    // must not start again when the handler resumes, or it expires later as a 503 no one receives.
    res.once('close', () => {
      clock.closed = true;
      clearTimeout(clock.timer);
    });
    next();
  };
}

/**
 * Runs `receive` (reading an upload, waiting for ingest) with the deadline stopped, then gives the request a
 * full deadline again.
 */
export async function offTheClock<T>(res: Response, receive: () => Promise<T>): Promise<T> {
  const clock = res.locals.deadline as Clock | undefined;
  clearTimeout(clock?.timer);
  try {
    return await receive();
  } finally {
    if (!res.headersSent) clock?.arm();
  }
}

/**
 * A body parser (express.json) run with the deadline stopped: receiving the body is the client's time, as
 * a multipart upload's is; a body that stalls is answered 408 by bodyStalls (http-layer.ts).
 */
export function receivedOffTheClock(parse: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    let failure: unknown;
    await offTheClock(
      res,
      () =>
        new Promise<void>((resolve) =>
          parse(req, res, (err?: unknown) => {
            failure = err;
            resolve();
          }),
        ),
    );
    next(failure);
  };
}
