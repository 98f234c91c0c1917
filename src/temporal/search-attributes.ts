// Registers the review workflow's search attributes in a namespace, once; the call is idempotent so the
// worker can make it at every start. Where the namespace does not let it (Temporal Cloud, a locked-down
// cluster), the worker stops and says which are missing and how to add them.
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

/**
 * The review workflow's search attributes the namespace lacks cannot be added by this worker (a Temporal
 * Cloud namespace, a cluster whose operators keep that right): said with what to run, once, to add them.
 */
export class MissingSearchAttributesError extends Error {}

/** The type names `temporal operator search-attribute create` and `tcld` take. */
const TYPE_NAMES: Partial<Record<SearchAttributeType, string>> = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.BOOL]: 'Bool',
};

export function missingSearchAttributesMessage(
  namespace: string,
  missing: readonly { name: string; type: SearchAttributeType }[],
  cause: string,
): string {
  const typed = missing.map((k) => ({ name: k.name, type: TYPE_NAMES[k.type] ?? k.type }));
  return [
    `the namespace "${namespace}" lacks the search attributes ` +
      `${typed.map((k) => `${k.name} (${k.type})`).join(', ')}, and this worker may not add them: ${cause}`,
    'Add them once, then start the worker again:',
    `  temporal operator search-attribute create --namespace ${namespace} ` +
      `${typed.map((k) => `--name ${k.name} --type ${k.type}`).join(' ')}`,
    `  (Temporal Cloud: tcld namespace search-attributes add --namespace ${namespace} ` +
      `${typed.map((k) => `--search-attribute "${k.name}=${k.type}"`).join(' ')})`,
  ].join('\n');
}

/** Adds the review workflow's search attributes the namespace lacks; the names added. */
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
  try {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  } catch (err) {
    throw new MissingSearchAttributesError(missingSearchAttributesMessage(namespace, missing, (err as Error).message));
  }
  return missing.map((k) => k.name);
}
