// Reviews in each internal state that is work in progress, and how long the oldest of each has been in
// it, read from Postgres when /metrics is scraped: a review stuck in release_gate or publication_blocked
// shows as an age that keeps growing (docs/operations.md's alerts). Every API process answers the same
// figures; the alerts take their maximum. States at rest (released, failed, awaiting_documents, which
// lasts days by design) are not counted.
import { Gauge, type Registry } from 'prom-client';
import type { Sql } from '../db/client.js';
import { INTERNAL_STATES } from '../reviews/states.js';

const AT_REST = new Set(['released', 'failed', 'awaiting_documents']);
const ACTIVE = INTERNAL_STATES.filter((s) => !AT_REST.has(s));
/** A scrape waits this long for Postgres, then answers the last figures read. */
const QUERY_TIMEOUT_MS = 2_000;

export function watchReviewStates(sql: Sql, registry: Registry): void {
  let latest: Promise<Map<string, { n: number; oldest: number }>> | undefined;
  let last = new Map<string, { n: number; oldest: number }>();
  const read = () => {
    latest ??= sql<{ internal_state: string; n: number; oldest: number }[]>`
        select internal_state, count(*)::int as n, extract(epoch from now() - min(updated_at))::float8 as oldest
          from reviews where internal_state not in ('released', 'failed', 'awaiting_documents')
         group by internal_state`
      .then((rows) => new Map(rows.map((r) => [r.internal_state, { n: r.n, oldest: r.oldest }])))
      .finally(() => {
        latest = undefined;
      });
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), QUERY_TIMEOUT_MS).unref());
    return Promise.race([latest.catch(() => undefined), timeout]).then((figures) => {
      if (figures) last = figures;
      return last;
    });
  };
  const gauge = (name: string, help: string, figure: (f: { n: number; oldest: number } | undefined) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const figures = await read();
        for (const state of ACTIVE) this.set({ state }, figure(figures.get(state)));
      },
    });
  gauge(
    'loan_review_reviews_in_state',
    'Reviews in each internal state of work in progress (read from Postgres at the scrape).',
    (f) => f?.n ?? 0,
  );
  gauge(
    'loan_review_oldest_review_in_state_seconds',
    'Seconds the oldest review in each internal state of work in progress has been in it (0: none).',
    (f) => f?.oldest ?? 0,
  );
}
