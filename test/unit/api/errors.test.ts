// What an error the API did not expect becomes: a server behind it that cannot be reached or cannot serve
// is 503 (retry), anything else 500; an ApiError is answered as it is.
import test from 'ava';
import { serverUnreachable } from '../../../api/errors.js';

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
