// Opaque, tamper-evident listing cursors: the position (time, id) of the last item on a page (a review's
// created_at, an event's occurred_at) and the organization it belongs to, signed with the server secret
// for one list (a review cursor is no event cursor). Integrators pass them back verbatim.
import { signedByAny, type SecretRing } from '../secrets/ring.js';
import { createHmac } from 'node:crypto';
import { z } from 'zod';

export interface ListPosition {
  /** The time the list is ordered by: a review's created_at, an event's occurred_at. */
  createdAt: string;
  id: string;
}

/** Which list a cursor pages through. */
export type CursorList = 'review' | 'event';

const PayloadSchema = z.strictObject({ o: z.uuid(), c: z.iso.datetime(), i: z.uuid() });

export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

function sign(payload: string, secret: string, list: CursorList): Buffer {
  return createHmac('sha256', secret).update(`${list}-cursor.${payload}`).digest();
}

export function encodeCursor(
  organizationId: string,
  position: ListPosition,
  secret: string,
  list: CursorList = 'review',
): string {
  const payload = Buffer.from(JSON.stringify({ o: organizationId, c: position.createdAt, i: position.id })).toString(
    'base64url',
  );
  return `${payload}.${sign(payload, secret, list).toString('base64url')}`;
}

/** The position a cursor names; InvalidCursorError when it is malformed, altered, or another organization's. */
export function decodeCursor(
  cursor: string,
  organizationId: string,
  secret: SecretRing<string>,
  list: CursorList = 'review',
): ListPosition {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw new InvalidCursorError('malformed cursor');
  if (!signedByAny(Buffer.from(signature, 'base64url'), secret, (s) => sign(payload, s, list)))
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
