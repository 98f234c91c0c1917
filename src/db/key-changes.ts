// Notices of changed API keys and organizations (the triggers of migration 00010), for the key cache of
// every API process. The payload names what changed: `key:<sha-256 hex>` or `organization:<uuid>`.
import type { Sql } from './client.js';

export const KEY_CHANGES_CHANNEL = 'api_key_changed';

export type KeyChange = { key: string } | { organization: string } | 'unknown';

export function parseKeyChange(payload: string): KeyChange {
  const key = /^key:([0-9a-f]{64})$/.exec(payload);
  if (key) return { key: key[1]! };
  const organization = /^organization:([0-9a-f-]{36})$/.exec(payload);
  if (organization) return { organization: organization[1]! };
  return 'unknown';
}

/**
 * Calls `onChange` for every notice and `onListening` whenever the listening connection is (re)made, when
 * notices sent while it was down are lost. postgres.js reconnects the listener by itself.
 */
export async function listenForKeyChanges(
  sql: Sql,
  onChange: (change: KeyChange) => void,
  onListening: () => void,
): Promise<{ unlisten: () => Promise<void> }> {
  return sql.listen(KEY_CHANGES_CHANNEL, (payload) => onChange(parseKeyChange(payload)), onListening);
}
