// `Idempotency-Key` on POST /reviews (decisions.md, "Idempotency"): remembered 24 hours per organization; a retry of a
// successful create gets 200 with the original body byte for byte; the same key with a different request
// is 422; a concurrent duplicate waits for the first and replays it; failures are not remembered.
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Sql } from '../src/db/client.js';
import { claimIdempotencyKey } from '../src/db/idempotency.js';
import { ApiError } from './errors.js';

const WAIT_FOR_FIRST_MS = 120_000;

export function idempotencyKey(req: Request): string | undefined {
  const key = req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > 255) {
    throw new ApiError('invalid_request', 422, 'Invalid request: Idempotency-Key: must be 1 to 255 characters.', {
      param: 'Idempotency-Key',
    });
  }
  return key;
}

/** A stable digest of what the request asks for: its fields and its documents (URLs, or content hashes). */
export function fingerprint(request: unknown): string {
  return createHash('sha256').update(canonical(request)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * `proceed` with the review id to create: the new one, or (`resumed`) that of a claim whose request died
 * before answering, whose review may exist already.
 */
export type IdempotentOutcome =
  | { kind: 'replay'; body: string }
  | { kind: 'proceed'; reviewId: string; resumed: boolean };

/** Claims the key for this request, or says what to answer instead. */
export async function beginIdempotent(
  sql: Sql,
  o: { organizationId: string; key: string; fingerprint: string; newReviewId: string; ttlHours: number },
): Promise<IdempotentOutcome> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await claimIdempotencyKey(sql, { ...o, reviewId: o.newReviewId });
    if (claim.kind === 'claimed') return { kind: 'proceed', reviewId: claim.reviewId, resumed: claim.resumed };
    if (claim.kind === 'replay') return claim;
    if (claim.kind === 'mismatch') {
      throw new ApiError(
        'invalid_request',
        422,
        'Invalid request: Idempotency-Key: already used with a different request.',
        { param: 'Idempotency-Key' },
      );
    }
    if (Date.now() > deadline)
      throw new ApiError(
        'service_unavailable',
        503,
        'A request with this Idempotency-Key is still in progress; retry later.',
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}
