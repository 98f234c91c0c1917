// The payloads of a workflow history as JSON (`historyToJSON`): every object with a metadata encoding,
// found where it sits, so tests and tooling can read or open them in place.
import type { JsonPayload } from '../../src/temporal/codec-server.js';

/** Every payload in the JSON, with its path (`.events[3].…`); the objects are the JSON's own. */
export function payloadsIn(json: unknown, path = ''): { path: string; payload: JsonPayload }[] {
  if (Array.isArray(json)) return json.flatMap((v, i) => payloadsIn(v, `${path}[${i}]`));
  if (typeof json !== 'object' || json === null) return [];
  const record = json as Record<string, unknown>;
  if (typeof (record.metadata as Record<string, unknown> | undefined)?.encoding === 'string')
    return [{ path, payload: record as JsonPayload }];
  return Object.entries(record).flatMap(([k, v]) => payloadsIn(v, `${path}.${k}`));
}

/** A payload's encoding, decoded (`json/plain`, `binary/encrypted`, …). */
export const encodingOf = (p: JsonPayload): string => Buffer.from(p.metadata?.encoding ?? '', 'base64').toString();
