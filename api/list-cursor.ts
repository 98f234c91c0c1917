// A list's cursor as the routes take and give it (src/reviews/cursor.ts signs and reads it): the position
// after which a page starts, or the interface's 422 naming `cursor`; and the next page's cursor.
import type { Config } from '../src/config.js';
import {
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  type CursorList,
  type ListPosition,
} from '../src/reviews/cursor.js';
import { ApiError } from './errors.js';

/** The position `cursor` names (none for a first page); 422 `invalid_request` when the API did not issue it. */
export function pageAfter(
  cursor: string | undefined,
  organizationId: string,
  config: Config,
  list: CursorList,
): ListPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    return decodeCursor(cursor, organizationId, config.secrets.serverAccepted, list);
  } catch (err) {
    if (!(err instanceof InvalidCursorError)) throw err;
    throw new ApiError(
      'invalid_request',
      422,
      `Invalid request: cursor: not a${list === 'event' ? 'n events' : ''} cursor this API issued; pass ` +
        'next_cursor back verbatim.',
      { param: 'cursor' },
    );
  }
}

/** The next page's cursor, after the page's last item; null when this page is the last. */
export function nextCursor(
  hasMore: boolean,
  last: ListPosition | undefined,
  organizationId: string,
  config: Config,
  list: CursorList,
): string | null {
  return hasMore && last ? encodeCursor(organizationId, last, config.secrets.server, list) : null;
}
