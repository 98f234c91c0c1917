// The API's Postgres timing: a query is timed from its first await to its end, once, with its outcome; a
// fragment never awaited and a helper are not timed; a transaction is timed as a whole.
import test from 'ava';
import type { Sql } from '../../../src/db/client.js';
import { timedSql, type QueryKind } from '../../../src/db/timed-sql.js';

/** A query as postgres.js makes one: a Promise that runs when awaited, with an `execute` of its own. */
class FakeQuery extends Promise<unknown> {
  execute(): void {}
}

function fakeSql(outcome: (text: string) => Promise<unknown>): Sql {
  const sql = (strings: TemplateStringsArray | Record<string, unknown>) => {
    if (!Array.isArray(strings)) return { helper: strings };
    const text = (strings as TemplateStringsArray).join('?');
    return new FakeQuery((resolve, reject) => outcome(text).then(resolve, reject));
  };
  return Object.assign(sql, {
    begin: async (fn: (tx: unknown) => Promise<unknown>) => fn(sql),
  }) as unknown as Sql;
}

function recording(): { sql: Sql; seen: [QueryKind, string][] } {
  const seen: [QueryKind, string][] = [];
  const sql = timedSql(
    fakeSql((text) => (text.includes('fail') ? Promise.reject(new Error('boom')) : Promise.resolve([{ n: 1 }]))),
    (kind, outcome, seconds) => {
      if (!(seconds >= 0)) throw new Error(`seconds ${seconds}`);
      seen.push([kind, outcome]);
    },
  );
  return { sql, seen };
}

test('an awaited query is timed once, with its outcome, and answers what it would have', async (t) => {
  const { sql, seen } = recording();
  const query = sql`select 1`;
  t.deepEqual(await query, [{ n: 1 }]);
  t.deepEqual(await query, [{ n: 1 }]);
  await t.throwsAsync(async () => sql`select fail`, { message: 'boom' });
  t.deepEqual(seen, [
    ['query', 'ok'],
    ['query', 'error'],
  ]);
});

test('a fragment never awaited and a helper are not timed; a transaction is, as a whole', async (t) => {
  const { sql, seen } = recording();
  void sql`where x = 1`;
  t.deepEqual((sql as unknown as (v: Record<string, unknown>) => unknown)({ a: 1 }), { helper: { a: 1 } });
  t.is(await sql.begin(async () => 'done'), 'done');
  t.deepEqual(seen, [['transaction', 'ok']]);
});
