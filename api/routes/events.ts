// /v1/events: the organization's events of the key's mode, newest first, as the webhooks carried them
// (each with its `id`), for reconciling what a receiver missed. Paged by signed cursor like reviews.
import { Router } from 'express';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { listEvents } from '../../src/db/events.js';
import { EventListQuerySchema } from '../../src/webhooks/payload.js';
import { caller } from '../auth.js';
import { nextCursor, pageAfter } from '../list-cursor.js';
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
      const after = pageAfter(cursor, who.organizationId, config, 'event');
      const page = await listEvents(sql, who, limit, after, { type, reviewId: review_id });
      const last = page.events.at(-1);
      const position = last && { createdAt: last.occurred_at, id: last.id };
      res.json({
        data: page.events,
        next_cursor: nextCursor(page.hasMore, position, who.organizationId, config, 'event'),
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
