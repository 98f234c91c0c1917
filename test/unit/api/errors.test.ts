// What an error the API did not expect becomes: a server behind it that cannot be reached or cannot serve
// is 503 (retry), anything else 500; an ApiError is answered as it is.
import test from 'ava';
import { ApiError, serverUnreachable } from '../../../api/errors.js';
import { invalidRequest } from '../../../api/validation.js';
import { z } from 'zod';

const coded = (code: string, cause?: unknown) =>
  Object.assign(new Error(`failed: ${code}`), { code }, cause === undefined ? {} : { cause });

test('socket failures and S3 "cannot serve" answers are a server unreachable', (t) => {
  for (const code of [
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'ETIMEDOUT',
    'CONNECTION_CLOSED',
    'SlowDown',
    'ServiceUnavailable',
    'InternalError',
  ]) {
    t.true(serverUnreachable(coded(code)), code);
  }
  // Wrapped by whatever consumed the failing stream.
  t.true(serverUnreachable(new Error('upload failed', { cause: coded('ECONNRESET') })));
});

test('a bug, a refusal of the request, or an S3 answer about the object is not', (t) => {
  t.false(serverUnreachable(new TypeError('undefined is not a function')));
  t.false(serverUnreachable(coded('NoSuchKey')));
  t.false(serverUnreachable(coded('AccessDenied')));
  t.false(serverUnreachable('a string'));
  t.false(serverUnreachable(null));
});

test("an error names the request field at fault in param: the one given, else its code's own, else none", (t) => {
  t.is(new ApiError('invalid_request', 422, 'Invalid request: cursor: no.', { param: 'cursor' }).param, 'cursor');
  t.is(ApiError.of('duplicate_reference_id', 'taken').param, 'reference_id');
  t.is(ApiError.of('document_too_large', 'too big').param, 'documents');
  t.is(ApiError.of('rate_limited', 'slow down').param, undefined);
  // A zod failure names its first field, as the interface names fields.
  const failed = z.object({ documents: z.array(z.object({ url: z.string() })) }).safeParse({ documents: [{}] });
  t.is(invalidRequest(failed.error!).param, 'documents[0].url');
  const unknown = z.strictObject({ a: z.string() }).safeParse({ a: 'x', extra: 1 });
  t.is(invalidRequest(unknown.error!).param, 'extra');
});
