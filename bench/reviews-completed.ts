// What the burst benchmarks wait for: every review they were answered with completed, none lost.
import type { Sql } from '../src/db/client.js';

/**
 * Resolves once every review of `ids` is completed. One that failed or waits for documents, or any not
 * completed within `timeoutMs`, is lost: it throws, failing the benchmark.
 */
export async function allCompleted(
  sql: Sql,
  ids: readonly string[],
  o: { timeoutMs: number; pollMs: number },
): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const rows = await sql<
      { id: string; status: string }[]
    >`select id, status from reviews where id = any(${ids}::uuid[])`;
    const stuck = rows.filter((r) => r.status === 'failed' || r.status === 'awaiting_documents');
    if (stuck.length) throw new Error(`lost: ${stuck.map((r) => `${r.id} ${r.status}`).join(', ')}`);
    if (rows.length === ids.length && rows.every((r) => r.status === 'completed')) return;
    if (Date.now() > deadline)
      throw new Error(
        `lost: ${ids.length - rows.filter((r) => r.status === 'completed').length} of ${ids.length} ` +
          `not completed in ${o.timeoutMs / 60_000} min`,
      );
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}
