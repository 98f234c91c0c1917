// The signature of a webhook delivery: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">`, keyed with the endpoint's signing secret (the scheme Stripe uses, so receivers can
// verify with well-known code). Computed afresh for each attempt (decisions.md, "Webhook signatures").
// While a rotated secret's overlap lasts, a second `v1=` is signed with the secret it replaced, as Stripe
// does: a receiver still holding that one verifies either.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

/** The header's value for the endpoint's secret and, during a rotation's overlap, the one it replaced. */
export function signatureHeader(secrets: readonly string[], rawBody: string, unixSeconds: number): string {
  const v1s = secrets.map((s) => `v1=${createHmac('sha256', s).update(`${unixSeconds}.${rawBody}`).digest('hex')}`);
  return [`t=${unixSeconds}`, ...v1s].join(',');
}
