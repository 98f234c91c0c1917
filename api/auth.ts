// API key authentication: `Authorization: Bearer <key>` or `X-Api-Key: <key>` (the same key; both sent
// and different is invalid). Sets the caller's organization and mode for every later handler.
import type { RequestHandler, Response } from 'express';
import { hashApiKey, sameKeyHash } from '../src/auth/api-keys.js';
import type { Sql } from '../src/db/client.js';
import { findApiKeyByHash } from '../src/db/keys.js';
import { ApiError } from './errors.js';

export interface Caller {
  organizationId: string;
  sandbox: boolean;
  keyId: string;
  /** The organization's override of the default rate limit, if any. */
  rateLimitPerMinute: number | null;
}

export function caller(res: Response): Caller {
  const c = res.locals.caller as Caller | undefined;
  if (!c) throw new Error('route mounted without authentication');
  return c;
}

function presentedKey(authorization: string | undefined, xApiKey: string | undefined): string | undefined {
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (authorization !== undefined && bearer === undefined) {
    throw ApiError.of('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
  }
  const header = xApiKey?.trim() || undefined;
  if (bearer !== undefined && header !== undefined && bearer !== header) {
    throw ApiError.of('invalid_api_key', 'Authorization and X-Api-Key carry different keys.');
  }
  return bearer ?? header;
}

export function authenticate(sql: Sql): RequestHandler {
  return async (req, res, next) => {
    try {
      const key = presentedKey(req.header('authorization'), req.header('x-api-key'));
      if (key === undefined) throw ApiError.of('missing_api_key', 'Send your API key as "Authorization: Bearer <key>".');
      const hash = hashApiKey(key);
      let record;
      try {
        record = await findApiKeyByHash(sql, hash);
      } catch {
        // The key store being down is never a pass and never a 500.
        throw ApiError.of('auth_unavailable', 'Authentication is temporarily unavailable; retry shortly.');
      }
      const now = Date.now();
      if (
        !record ||
        !sameKeyHash(record.keyHash, hash) ||
        record.revokedAt !== null ||
        (record.expiresAt !== null && record.expiresAt.getTime() <= now)
      ) {
        throw ApiError.of('invalid_api_key', 'The API key is invalid, revoked or expired.');
      }
      if (record.organizationId === null) {
        throw ApiError.of('org_unbound', 'The API key is not bound to an organization.');
      }
      res.locals.caller = {
        organizationId: record.organizationId,
        sandbox: record.sandbox,
        keyId: record.id,
        rateLimitPerMinute: record.rateLimitPerMinute,
      } satisfies Caller;
      next();
    } catch (err) {
      next(err);
    }
  };
}
