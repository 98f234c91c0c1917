// Per-organization rate limit (default 60 requests a minute, per-organization override in the database),
// counted in Postgres so it holds across every API process. Fixed one-minute windows aligned to the clock;
// headers X-RateLimit-Limit / -Remaining / -Reset (Unix seconds) on every authenticated response, and
// 429 rate_limited with Retry-After past the limit.
import { rateLimit, type Store, type IncrementResponse } from 'express-rate-limit';
import type { RequestHandler, Response } from 'express';
import type { Sql } from '../src/db/client.js';
import { countRequests, forgetWindowsBefore, uncountRequest } from '../src/db/rate-limits.js';
import { BatchedCounter } from '../src/rate-limit/batched-counter.js';
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
  private readonly counter: BatchedCounter<{ organizationId: string; start: Date }>;

  constructor(private readonly sql: Sql) {
    this.counter = new BatchedCounter(
      ({ organizationId, start }, n) => countRequests(sql, organizationId, start, n),
      ({ organizationId, start }) => `${organizationId}@${start.getTime()}`,
    );
  }

  async increment(organizationId: string): Promise<IncrementResponse> {
    const start = windowStart(Date.now());
    let totalHits: number;
    try {
      totalHits = await this.counter.count({ organizationId, start });
    } catch {
      // Admitting a request is part of authenticating it (a key remembered by this process needs no
      // lookup): the count being out of reach is auth_unavailable, as the key store's is, never a 500.
      throw ApiError.of('auth_unavailable', 'Authentication is temporarily unavailable; retry shortly.');
    }
    // Old windows are worthless; sweep them now and then rather than on every request.
    if (++this.calls % 500 === 0)
      void forgetWindowsBefore(this.sql, new Date(start.getTime() - 10 * WINDOW_MS)).catch(() => {});
    return { totalHits, resetTime: new Date(start.getTime() + WINDOW_MS) };
  }

  async decrement(organizationId: string): Promise<void> {
    await uncountRequest(this.sql, organizationId, windowStart(Date.now()));
  }

  async resetKey(): Promise<void> {
    // Windows expire by themselves; nothing to reset early.
  }
}

/** Whether the request was authenticated and admitted by the rate limit (api/deadline.ts tells the two apart). */
export function admitted(res: Response): boolean {
  return res.locals.admitted === true;
}

export function organizationRateLimit(sql: Sql, defaultLimit: number): RequestHandler[] {
  const limiter = rateLimit({
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
  const admit: RequestHandler = (_req, res, next) => {
    res.locals.admitted = true;
    next();
  };
  return [limiter, admit];
}
