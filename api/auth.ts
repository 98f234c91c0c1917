// API key authentication: `Authorization: Bearer <key>` or `X-Api-Key: <key>` (the same key; both sent
// and different is invalid). Sets the caller's organization and mode for every later handler.
import type { RequestHandler, Response } from 'express';
import { hashApiKey, sameKeyHash } from '../src/auth/api-keys.js';
import { KeyCache } from '../src/auth/key-cache.js';
import type { Sql } from '../src/db/client.js';
import { listenForKeyChanges } from '../src/db/key-changes.js';
import { findApiKeyByHash, type AuthenticatedKey } from '../src/db/keys.js';
import type { FailureWindows } from '../src/rate-limit/failure-windows.js';
import { ApiError } from './errors.js';
import type { Logger } from '../src/telemetry/logger.js';

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

/** Looks keys up in Postgres, or in what this process remembers of them (src/auth/key-cache.ts). */
export interface KeyLookup {
  find(hash: Buffer): Promise<AuthenticatedKey | undefined>;
  /** The key as this process remembers it, without a lookup; undefined when it does not. */
  remembered(hash: Buffer): AuthenticatedKey | undefined;
}

const LISTEN_RETRY_MS = 5_000;
/** Unknown keys remembered at most (then forgotten all at once): a bound on the memory they take. */
const MAX_UNKNOWN_REMEMBERED = 10_000;

/**
 * Key lookups remembered for `ttlMs`, but only while this process hears the announcements of changed keys:
 * until its listener is connected (and again from scratch after each reconnect) every request looks its
 * key up, so a revocation reaches a request at once, or, when a notice was missed, within `ttlMs`.
 * A key no one has is remembered as such for `ttlMs` too: the same wrong key sent again and again is
 * looked up once in that time. (No notice is needed: a key created later is random, never one sent before.)
 */
export function cachedKeyLookup(sql: Sql, ttlMs: number, log: Logger): KeyLookup {
  const cache = new KeyCache(ttlMs);
  const unknown = new Map<string, number>();
  let listening = false;
  const listen = () => {
    listenForKeyChanges(
      sql,
      (change) => {
        if (change === 'unknown') cache.forgetAll();
        else if ('key' in change) cache.forgetKey(change.key);
        else cache.forgetOrganization(change.organization);
      },
      () => {
        cache.forgetAll();
        listening = true;
      },
    ).catch((err: unknown) => {
      log.warn(
        `key change notices unavailable (${err instanceof Error ? err.message : String(err)}); keys ` +
          `are looked up on every request until they are`,
      );
      setTimeout(listen, LISTEN_RETRY_MS).unref();
    });
  };
  if (ttlMs > 0) listen();
  const remembered = (hash: Buffer) => (listening ? cache.get(hash) : undefined);
  return {
    remembered,
    async find(hash) {
      const known = remembered(hash);
      if (known) return known;
      const hex = hash.toString('hex');
      if ((unknown.get(hex) ?? 0) > Date.now()) return undefined;
      const mark = cache.mark();
      const record = await findApiKeyByHash(sql, hash);
      if (record && listening) cache.remember(hash, record, mark);
      if (!record && ttlMs > 0) {
        if (unknown.size >= MAX_UNKNOWN_REMEMBERED) unknown.clear();
        unknown.set(hex, Date.now() + ttlMs);
      }
      return record;
    },
  };
}

/**
 * Authenticates every request. A client address whose keys failed `failures`' limit this minute is
 * refused 429 before its key is looked up, unless the key authenticated in this process within the
 * minute (another client's failures behind the same address do not lock it out; it is looked up as ever).
 */
export function authenticate(keys: KeyLookup, failures: FailureWindows): RequestHandler {
  return async (req, res, next) => {
    try {
      const key = presentedKey(req.header('authorization'), req.header('x-api-key'));
      if (key === undefined)
        throw ApiError.of('missing_api_key', 'Send your API key as "Authorization: Bearer <key>".');
      const hash = hashApiKey(key);
      const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const keyId = hash.toString('hex');
      let record = keys.remembered(hash);
      if (!record) {
        const waitMs = failures.retryAfterMs(client, keyId);
        if (waitMs > 0) {
          res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
          res.locals.rateLimit = 'failed_keys';
          throw ApiError.of(
            'rate_limited',
            'Too many requests with an invalid API key from this address; retry after the time in Retry-After.',
          );
        }
        try {
          record = await keys.find(hash);
        } catch {
          // The key store being down is never a pass and never a 500.
          throw ApiError.of('auth_unavailable', 'Authentication is temporarily unavailable; retry shortly.');
        }
      }
      const now = Date.now();
      if (
        !record ||
        !sameKeyHash(record.keyHash, hash) ||
        record.revokedAt !== null ||
        (record.expiresAt !== null && record.expiresAt.getTime() <= now)
      ) {
        failures.fail(client, keyId);
        throw ApiError.of('invalid_api_key', 'The API key is invalid, revoked or expired.');
      }
      if (record.organizationId === null) {
        failures.fail(client, keyId);
        throw ApiError.of('org_unbound', 'The API key is not bound to an organization.');
      }
      failures.succeed(keyId);
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
