// Forwards-only migrations (postgres-shift), serialised by an advisory lock so that several processes
// starting at once (API replicas, worker) cannot apply the same migration twice.
import shift from 'postgres-shift';
import postgres from 'postgres';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { databaseTarget } from './client.js';

const MIGRATIONS_LOCK = 7_320_451; // arbitrary, fixed: the key of the advisory lock

export async function migrate(config: Pick<Config, 'database'>, log: (line: string) => void = () => {}): Promise<void> {
  // One connection, so the session-level lock covers every statement postgres-shift runs.
  const { url, ssl } = databaseTarget(config);
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10, ...(ssl !== undefined ? { ssl } : {}) });
  try {
    await sql`select pg_advisory_lock(${MIGRATIONS_LOCK})`;
    await shift({
      sql,
      path: fileURLToPath(new URL('./migrations', import.meta.url)),
      before: ({ migration_id, name }: { migration_id: number; name: string }) =>
        log(`applying migration ${migration_id} ${name}`),
    });
    await sql`select pg_advisory_unlock(${MIGRATIONS_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
