// Opaque, tamper-evident listing cursors: the position (created_at, id) of the last review on a page and
// the organization it belongs to, signed with the server secret. Integrators pass them back verbatim.
import { signedByAny, type SecretRing } from '../secrets/ring.js';
import { createHmac } from 'node:crypto';
import { z } from 'zod';

export interface ListPosition {
  createdAt: string;
  id: string;
}

const PayloadSchema = z.strictObject({ o: z.uuid(), c: z.iso.datetime(), i: z.uuid() });

export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

function sign(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`review-cursor.${payload}`).digest();
}

export function encodeCursor(organizationId: string, position: ListPosition, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ o: organizationId, c: position.createdAt, i: position.id })).toString(
    'base64url',
  );
  return `${payload}.${sign(payload, secret).toString('base64url')}`;
}

/** The position a cursor names; InvalidCursorError when it is malformed, altered, or another organization's. */
export function decodeCursor(cursor: string, organizationId: string, secret: SecretRing<string>): ListPosition {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw new InvalidCursorError('malformed cursor');
  if (!signedByAny(Buffer.from(signature, 'base64url'), secret, (s) => sign(payload, s)))
    throw new InvalidCursorError('cursor signature mismatch');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('malformed cursor');
  }
  const parsed = PayloadSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.o !== organizationId)
    throw new InvalidCursorError('cursor is not for this organization');
  return { createdAt: parsed.data.c, id: parsed.data.i };
}
