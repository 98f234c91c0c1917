// Per-organization rate limit (default 60 requests a minute, per-organization override in the database),
// counted in Postgres so it holds across every API process. Fixed one-minute windows aligned to the clock;
// headers X-RateLimit-Limit / -Remaining / -Reset (Unix seconds) on every authenticated response, and
// 429 rate_limited with Retry-After past the limit.
import { rateLimit, type Store, type IncrementResponse } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import type { Sql } from '../src/db/client.js';
import { countRequest, forgetWindowsBefore, uncountRequest } from '../src/db/rate-limits.js';
import { caller } from './auth.js';
import { ApiError } from './errors.js';

const WINDOW_MS = 60_000;

function windowStart(now: number): Date {
  return new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
}

export class PostgresRateLimitStore implements Store {
  // Counters are shared by every process; express-rate-limit must not keep its own.
  localKeys = false;
  private calls = 0;

  constructor(private readonly sql: Sql) {}

  async increment(organizationId: string): Promise<IncrementResponse> {
    const start = windowStart(Date.now());
    const totalHits = await countRequest(this.sql, organizationId, start);
    // Old windows are worthless; sweep them now and then rather than on every request.
    if (++this.calls % 500 === 0) void forgetWindowsBefore(this.sql, new Date(start.getTime() - 10 * WINDOW_MS)).catch(() => {});
    return { totalHits, resetTime: new Date(start.getTime() + WINDOW_MS) };
  }

  async decrement(organizationId: string): Promise<void> {
    await uncountRequest(this.sql, organizationId, windowStart(Date.now()));
  }

  async resetKey(): Promise<void> {
    // Windows expire by themselves; nothing to reset early.
  }
}

export function organizationRateLimit(sql: Sql, defaultLimit: number): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: (_req, res) => caller(res).rateLimitPerMinute ?? defaultLimit,
    keyGenerator: (_req, res) => caller(res).organizationId,
    standardHeaders: false,
    legacyHeaders: true,
    store: new PostgresRateLimitStore(sql),
    // We key by organization id, never by IP; the library's IP checks do not apply.
    validate: { ip: false, keyGeneratorIpFallback: false, trustProxy: false, xForwardedForHeader: false },
    handler: (_req, _res, next) => {
      next(ApiError.of('rate_limited', 'Rate limit exceeded; retry after the time in Retry-After.'));
    },
  });
}
