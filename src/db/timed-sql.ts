// A pool whose queries and transactions are timed, for the API's metrics. postgres.js has no hook for a
// query's end, so the pool is wrapped: a query made with the tagged template is timed from when it is first
// awaited (when postgres.js sends it) until it settles; a transaction (begin) as a whole, its own queries
// within it. Fragments nested in other queries are never awaited themselves, so never timed twice.
import type { Sql } from './client.js';

export type QueryKind = 'query' | 'transaction';
export type ObserveQuery = (kind: QueryKind, outcome: 'ok' | 'error', seconds: number) => void;

const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

export function timedSql(sql: Sql, observe: ObserveQuery): Sql {
  const begin = ((...args: unknown[]) => {
    const started = process.hrtime.bigint();
    const run = (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args);
    run.then(
      () => observe('transaction', 'ok', since(started)),
      () => observe('transaction', 'error', since(started)),
    );
    return run;
  }) as Sql['begin'];
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const made: unknown = Reflect.apply(target, thisArg, args);
      if (isQuery(made)) timeWhenAwaited(made, observe);
      return made;
    },
    get(target, prop) {
      return prop === 'begin' ? begin : Reflect.get(target, prop);
    },
  });
}

interface Thenable {
  then(onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown): unknown;
  execute?: unknown;
}

/** A query of postgres.js (a Promise it runs when awaited), not a helper such as sql(values). */
function isQuery(value: unknown): value is Thenable {
  return value instanceof Promise && typeof (value as Thenable).execute === 'function';
}

function timeWhenAwaited(query: Thenable, observe: ObserveQuery): void {
  const then = query.then;
  // biome-ignore lint/suspicious/noThenProperty: timing a query is wrapping the then() that runs it.
  query.then = function (this: Thenable, onFulfilled, onRejected) {
    // Timed once, through the first awaiter's own callbacks (no promise of its own per query); a later
    // awaiter gets postgres.js's own then().
    Reflect.deleteProperty(query, 'then');
    const started = process.hrtime.bigint();
    return then.call(
      query,
      (value) => {
        observe('query', 'ok', since(started));
        return onFulfilled ? onFulfilled(value) : value;
      },
      (reason) => {
        observe('query', 'error', since(started));
        if (onRejected) return onRejected(reason);
        throw reason;
      },
    );
  };
}
