// API keys: stored as SHA-256 with a short prefix for operators; revocation and expiry are timestamps.
import { randomUUID } from 'node:crypto';
import type { Sql } from './client.js';
import { generateApiKey } from '../auth/api-keys.js';

export interface ApiKeyRecord {
  id: string;
  organizationId: string | null;
  prefix: string;
  keyHash: Buffer;
  sandbox: boolean;
  label: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A key as authentication needs it: with its organization's rate-limit override. */
export interface AuthenticatedKey extends ApiKeyRecord {
  rateLimitPerMinute: number | null;
}

type KeyRow = {
  id: string;
  organization_id: string | null;
  prefix: string;
  key_hash: Buffer;
  sandbox: boolean;
  label: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
};

function fromRow(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    prefix: r.prefix,
    keyHash: r.key_hash,
    sandbox: r.sandbox,
    label: r.label,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

export interface CreateKeyOptions {
  organizationId: string | null;
  sandbox: boolean;
  label?: string;
  expiresAt?: Date | null;
}

/** Creates a key and returns it in clear together with its record: the only time the key is seen. */
export async function createApiKey(sql: Sql, opts: CreateKeyOptions): Promise<{ key: string; record: ApiKeyRecord }> {
  const generated = generateApiKey(opts.sandbox);
  const [row] = await sql<KeyRow[]>`
    insert into api_keys (id, organization_id, prefix, key_hash, sandbox, label, expires_at)
    values (${randomUUID()}, ${opts.organizationId}, ${generated.prefix}, ${generated.hash},
            ${opts.sandbox}, ${opts.label ?? ''}, ${opts.expiresAt ?? null})
    returning *`;
  return { key: generated.key, record: fromRow(row!) };
}

export async function findApiKeyByHash(sql: Sql, hash: Buffer): Promise<AuthenticatedKey | undefined> {
  const [row] = await sql<(KeyRow & { rate_limit_per_minute: number | null })[]>`
    select k.*, o.rate_limit_per_minute
      from api_keys k left join organizations o on o.id = k.organization_id
     where k.key_hash = ${hash}`;
  return row && { ...fromRow(row), rateLimitPerMinute: row.rate_limit_per_minute };
}

export async function listApiKeys(sql: Sql, organizationId?: string): Promise<ApiKeyRecord[]> {
  const rows = organizationId
    ? await sql<KeyRow[]>`select * from api_keys where organization_id = ${organizationId} order by created_at, id`
    : await sql<KeyRow[]>`select * from api_keys order by created_at, id`;
  return rows.map(fromRow);
}

/** Revokes one key, named by id or by its prefix (which must match exactly one key). */
export async function revokeApiKey(sql: Sql, idOrPrefix: string): Promise<ApiKeyRecord | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
  const matches = isUuid
    ? await sql<KeyRow[]>`select * from api_keys where id = ${idOrPrefix}`
    : await sql<KeyRow[]>`select * from api_keys where prefix = ${idOrPrefix}`;
  if (matches.length !== 1) return undefined;
  const [row] = await sql<KeyRow[]>`
    update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ${matches[0]!.id} returning *`;
  return row && fromRow(row);
}
