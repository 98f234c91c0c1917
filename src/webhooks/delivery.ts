// One attempt at delivering a webhook: the target is vetted by the address guard at delivery time (an
// endpoint's DNS may have changed since registration), the connection pinned to the checked addresses,
// the body signed afresh, and the whole exchange bounded by one timeout. Redirects are not followed.
import { checkTarget, UnsafeTargetError } from '../outbound/address-guard.js';
import { pinnedRequest } from '../outbound/pinned-https.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** Receivers answer within about 10 s (interface, "Events"); a slower one times out and is retried. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryRequest {
  url: string;
  /** The endpoint's signing secret, then the one a rotation replaced while its overlap lasts. */
  secrets: readonly string[];
  /** The payload exactly as sent; the same on every attempt, so receivers can de-duplicate. */
  body: string;
  allowLoopback: boolean;
  timeoutMs?: number;
  now?: () => Date;
}

export interface DeliveryOutcome {
  /** 2xx: delivered. */
  delivered: boolean;
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /**
   * Why it was not delivered, as the endpoint's deliveries list shows its owner: the receiver's status, a
   * timeout, or one generic "no HTTP response" for every connection and TLS failure, so the list cannot
   * be used to tell a closed port of a public host from one that speaks something other than HTTPS.
   */
  error: string | null;
  /** The failure as it was (the system's error code and message), for operators' logs only. */
  detail: string | null;
  durationMs: number;
  /** True when trying again cannot help (the target is not one we may call). */
  final: boolean;
}

/** Every failure to get an HTTP answer other than a timeout, as the endpoint's owner reads it. */
export const NO_HTTP_RESPONSE = 'no HTTP response: the connection or TLS handshake failed';

export async function deliverOnce(r: DeliveryRequest): Promise<DeliveryOutcome> {
  const started = performance.now();
  const done = (o: Omit<DeliveryOutcome, 'durationMs'>): DeliveryOutcome => ({
    ...o,
    durationMs: Math.round(performance.now() - started),
  });
  const timeoutMs = r.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const target = await checkTarget(r.url, { allowLoopback: r.allowLoopback });
    const t = Math.floor((r.now ?? (() => new Date()))().getTime() / 1000);
    const res = await pinnedRequest(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(r.body)),
        'user-agent': 'loan-review-webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(r.secrets, r.body, t),
      },
      body: r.body,
      signal,
    });
    // The answer's body is not ours to keep; drain it within the same timeout so the socket closes.
    for await (const _chunk of res) void _chunk;
    const status = res.statusCode ?? 0;
    const delivered = status >= 200 && status < 300;
    const error = delivered ? null : `answered HTTP ${status}`;
    return done({ delivered, statusCode: status, error, detail: error, final: false });
  } catch (err) {
    if (err instanceof UnsafeTargetError) {
      const refused = `refused: the URL ${err.message}`;
      return done({ delivered: false, statusCode: null, error: refused, detail: refused, final: true });
    }
    if (signal.aborted) {
      const late = `timed out after ${timeoutMs} ms`;
      return done({ delivered: false, statusCode: null, error: late, detail: late, final: false });
    }
    const code = (err as { code?: unknown }).code;
    const detail = `transport error${typeof code === 'string' ? ` ${code}` : ''}: ${(err as Error).message}`;
    return done({ delivered: false, statusCode: null, error: NO_HTTP_RESPONSE, detail, final: false });
  }
}

/** Attempts per event and endpoint, and the pauses between them (interface, "Events"). */
export const DELIVERY_ATTEMPTS = 3;
export const DELIVERY_BACKOFF_MS = [500, 1_000] as const;

/**
 * Before an attempt: go now, or not before `until`. An organization's deliveries to one host are paced (the worker's
 * takeDeliverySlot); a wait longer than a moment is the workflow's to sleep, not a worker slot's.
 */
export type Pacing = (attempt: number) => Promise<'go' | { until: Date }>;

export interface DeliveryResult {
  delivered: boolean;
  /** Attempts made so far, those of earlier calls included. */
  attempts: number;
  /** Set when the next attempt must wait for the host's pace: continue then with `firstAttempt` = attempts + 1. */
  pacedUntil?: Date;
}

/**
 * Delivers with the interface's retries: up to 3 attempts, 0.5 s then 1 s apart, each signed afresh.
 * The pauses are kept here rather than in a Temporal retry policy: the server fires retry timers up to a
 * second late, which measured 1.06 s and 1.04 s for 0.5 s and 1 s. `firstAttempt` > 1 continues a
 * delivery that a crashed worker had begun, or that waited for its host's pace; `record` sees every attempt.
 */
export async function deliverWithRetries(
  r: DeliveryRequest,
  o: {
    firstAttempt?: number;
    /** The first attempt's pause was had before its host's pace held it back. */
    pausedAlready?: boolean;
    record: (attempt: number, outcome: DeliveryOutcome) => Promise<void>;
    sleep?: (ms: number) => Promise<void>;
    pace?: Pacing;
  },
): Promise<DeliveryResult> {
  const pause = o.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const first = o.firstAttempt ?? 1;
  let attempt = first;
  for (; attempt <= DELIVERY_ATTEMPTS; attempt++) {
    if (attempt > 1 && !(attempt === first && o.pausedAlready))
      await pause(DELIVERY_BACKOFF_MS[Math.min(attempt - 2, DELIVERY_BACKOFF_MS.length - 1)]!);
    const paced = o.pace ? await o.pace(attempt) : 'go';
    if (paced !== 'go') return { delivered: false, attempts: attempt - 1, pacedUntil: paced.until };
    const outcome = await deliverOnce(r);
    await o.record(attempt, outcome);
    if (outcome.delivered) return { delivered: true, attempts: attempt };
    if (outcome.final) break;
  }
  return { delivered: false, attempts: Math.min(attempt, DELIVERY_ATTEMPTS) };
}
