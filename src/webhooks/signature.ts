// The signature of a webhook delivery: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">`, keyed with the endpoint's signing secret (the scheme Stripe uses, so receivers can
// verify with well-known code). Computed afresh for each attempt (decisions.md, "Webhook signatures").
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
