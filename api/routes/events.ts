// /v1/events: the organization's events of the key's mode, newest first, as the webhooks carried them
// (each with its `id`), for reconciling what a receiver missed. Paged by signed cursor like reviews.
import { Router } from 'express';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { listEvents } from '../../src/db/events.js';
import { decodeCursor, encodeCursor, InvalidCursorError, type ListPosition } from '../../src/reviews/cursor.js';
import { EventListQuerySchema } from '../../src/webhooks/payload.js';
import { caller } from '../auth.js';
import { ApiError } from '../errors.js';
import { invalidRequest } from '../validation.js';
import { methodNotAllowed } from './method-not-allowed.js';

export function eventRoutes({ config, sql }: { config: Config; sql: Sql }): Router {
  const router = Router();
  router
    .route('/events')
    .get(async (req, res) => {
      const who = caller(res);
      const query = EventListQuerySchema.safeParse(req.query);
      if (!query.success) throw invalidRequest(query.error);
      const { limit, cursor, type, review_id } = query.data;
      let after: ListPosition | undefined;
      if (cursor !== undefined) {
        try {
          after = decodeCursor(cursor, who.organizationId, config.secrets.serverAccepted, 'event');
        } catch (err) {
          if (!(err instanceof InvalidCursorError)) throw err;
          throw new ApiError(
            'invalid_request',
            422,
            'Invalid request: cursor: not an events cursor this API issued; pass next_cursor back verbatim.',
            { param: 'cursor' },
          );
        }
      }
      const page = await listEvents(sql, who, limit, after, { type, reviewId: review_id });
      const last = page.events.at(-1);
      res.json({
        data: page.events,
        next_cursor:
          page.hasMore && last
            ? encodeCursor(
                who.organizationId,
                { createdAt: last.occurred_at, id: last.id },
                config.secrets.server,
                'event',
              )
            : null,
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
