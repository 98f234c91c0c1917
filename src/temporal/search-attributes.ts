// Registers the review workflow's search attributes in a namespace, once; the call is idempotent so the
// worker can make it at every start.
import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { temporal as Api } from '@temporalio/proto';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal } = proto;
import { SearchAttributeType } from '@temporalio/common';
import { REVIEW_SEARCH_ATTRIBUTES } from './search-attribute-keys.js';

const INDEXED: Partial<Record<SearchAttributeType, Api.api.enums.v1.IndexedValueType>> = {
  [SearchAttributeType.KEYWORD]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.BOOL]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
};

export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set([
    ...Object.keys(existing.customAttributes ?? {}),
    ...Object.keys(existing.systemAttributes ?? {}),
  ]);
  const missing = REVIEW_SEARCH_ATTRIBUTES.filter((k) => !known.has(k.name));
  if (missing.length === 0) return [];
  const searchAttributes: Record<string, Api.api.enums.v1.IndexedValueType> = {};
  for (const key of missing) {
    const indexed = INDEXED[key.type];
    if (indexed === undefined) throw new Error(`no indexed type for search attribute ${key.name}`);
    searchAttributes[key.name] = indexed;
  }
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  return missing.map((k) => k.name);
}
