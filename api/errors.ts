// The one error type of the API and the middleware that turns anything thrown into the spec's envelope
// `{ error: { code, message } }`, with `param` added where one request field is at fault. Messages never
// carry stack traces, SQL or object keys.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import {
  ERROR_CODES,
  paramOf,
  statusOf,
  type ErrorCode,
  type FixedStatusCode,
  type StatusOf,
} from '../src/errors/catalog.js';
import { z } from '../src/openapi/zod.js';
import type { Logger } from '../src/telemetry/logger.js';
import { requestFields } from './request-id.js';

/** An answer in the envelope: a code of the catalog with one of the statuses the catalog gives it. */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  override name = 'ApiError';
  /** The request field at fault (`documents[0].url`, `cursor`), as the answer's `param` says. */
  readonly param: string | undefined;
  constructor(
    readonly code: C,
    readonly status: StatusOf<C>,
    message: string,
    o: {
      /** The field at fault, when not the code's own (the catalog's). */
      param?: string | undefined;
      /** What the log says of a 5xx answered so (the failure's stack when unsaid). */
      logAs?: string;
    } = {},
  ) {
    super(message);
    this.param = o.param ?? paramOf(code);
    this.logAs = o.logAs;
  }
  readonly logAs: string | undefined;

  /** A code whose status the catalog fixes. */
  static of(code: FixedStatusCode, message: string, param?: string): ApiError {
    return new ApiError(code, statusOf(code), message, { param });
  }
}

export const notFound: RequestHandler = (req, _res, next) => {
  next(new ApiError('not_found', 404, `No route for ${req.method} ${req.path}.`));
};

/** What a 503 tells the client to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Answers `apiError` in the envelope. A 5xx is logged, with `what` happened, under the request's id (the
 * X-Request-Id the client is answered with); a 503 says when to come back (Retry-After).
 */
export function sendError(req: Request, res: Response, apiError: ApiError, log: Logger, what: string): void {
  res.locals.errorCode = apiError.code;
  if (apiError.status >= 500) log.error(what, { ...requestFields(req, res), status: apiError.status });
  if (apiError.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  const { code, message, param } = apiError;
  res.status(apiError.status).json({ error: param === undefined ? { code, message } : { code, message, param } });
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    // Answered already (the request deadline's 503): what the handler found later has no one to go to.
    if (res.headersSent) {
      log.warn(`finished after its answer was sent: ${err instanceof Error ? err.message : String(err)}`, {
        ...requestFields(req, res),
      });
      return;
    }
    sendError(
      req,
      res,
      toApiError(err),
      log,
      err instanceof ApiError && err.logAs
        ? err.logAs
        : `failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // body-parser's errors carry a status and a type; their messages are safe to paraphrase, not to echo.
  if (typeof err === 'object' && err !== null && 'type' in err) {
    const type = (err as { type?: unknown }).type;
    if (type === 'entity.parse.failed')
      return new ApiError('invalid_request', 400, 'The request body is not valid JSON.');
    // The interface gives invalid_request 400 or 422 (413 is document_too_large's alone): a body too big to
    // be read is a malformed one.
    if (type === 'entity.too.large')
      return new ApiError('invalid_request', 422, 'Invalid request: body: larger than the 1 MB a JSON body may be.');
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return new ApiError('invalid_request', 400, 'The request body encoding is not supported.');
    }
  }
  if (serverUnreachable(err)) {
    return new ApiError(
      'service_unavailable',
      503,
      'A server behind the API is unavailable; retry shortly (with the same Idempotency-Key for a create).',
    );
  }
  return ApiError.of('internal_error', 'Unexpected server error; retry later.');
}

/** Socket-level failures: the server at the other end is down, restarting or unreachable. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
/** What S3 (and MinIO) answer while they cannot serve: retry later. */
const UNAVAILABLE_S3_CODES = new Set([
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'XMinioServerNotInitialized',
  'RequestTimeout',
]);

/**
 * Whether an error says that a server behind the API (object storage, Postgres) could not be reached or
 * could not serve, rather than that something is wrong with the request or the code: the caller is told
 * 503 to retry, not 500. Looks through `cause` chains (a stream's error wrapped by its consumer).
 */
export function serverUnreachable(err: unknown): boolean {
  for (
    let e = err, depth = 0;
    typeof e === 'object' && e !== null && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_S3_CODES.has(code))) return true;
  }
  return false;
}

/** The error envelope every failure is answered with (documented in the OpenAPI document). */
export const ErrorEnvelopeSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES).describe('Machine code from a closed set; branch on this.'),
    message: z.string().describe('Advisory text; may change.'),
    param: z
      .string()
      .optional()
      .describe(
        'The request field at fault, when one is (`documents[0].url`, `reference_id`, `cursor`); absent otherwise.',
      ),
  }),
});
