// One postgres.js pool per process. Timestamps come back as Date, bigint sizes as numbers (our limits
// keep them far below 2^53).
import postgres from 'postgres';
import type { Config } from '../config.js';

export type Sql = postgres.Sql;
/**
 * What a query function runs on: the pool, or a transaction of it (postgres.js types a transaction apart,
 * without the pool's methods such as begin and end, which such a function does not use).
 */
export type Queryable = Sql | postgres.TransactionSql;

export function createSql(config: Pick<Config, 'database'>, options: { max?: number } = {}): Sql {
  return postgres(config.database.url, {
    max: options.max ?? config.database.poolMax,
    // A failing database must surface as an error (auth_unavailable, 503 on /readyz), not as a hang.
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  });
}
