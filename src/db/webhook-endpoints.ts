// Webhook endpoints, owned by an organization and a mode (live or sandbox). Deleting keeps the row
// (deliveries reference it) but hides it everywhere.
import type { Sql } from './client.js';
import type { WebhookEndpoint } from '../webhooks/endpoint.js';

type EndpointRow = {
  id: string;
  organization_id: string;
  sandbox: boolean;
  url: string;
  description: string;
  enabled: boolean;
  secret_ciphertext: Buffer;
  secret_hint: string;
  created_at: Date;
};

export interface StoredEndpoint {
  endpoint: WebhookEndpoint;
  secretCiphertext: Buffer;
  /** The organization that registered it (its deliveries are paced per organization and host). */
  organizationId: string;
}

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    enabled: r.enabled,
    description: r.description,
    secret_hint: r.secret_hint,
    created_at: r.created_at.toISOString(),
  };
}

function toStored(r: EndpointRow): StoredEndpoint {
  return { endpoint: toEndpoint(r), secretCiphertext: r.secret_ciphertext, organizationId: r.organization_id };
}

export interface Owner {
  organizationId: string;
  sandbox: boolean;
}

/** The organization already has as many endpoints in this mode as it may. */
export class EndpointLimitError extends Error {
  constructor(readonly max: number) {
    super(`at most ${max} webhook endpoints per organization and mode`);
  }
}

/** The owner has an endpoint with this URL already: each event would go to it twice. */
export class DuplicateEndpointError extends Error {
  constructor(readonly existingId: string) {
    super(`already registered as endpoint ${existingId}`);
  }
}

/**
 * Registers an endpoint unless the owner has `max` already or one with the same URL (both decided under
 * a lock of the owner's, so two registrations at once cannot both take the last place, or the same URL).
 */
export async function insertEndpoint(
  sql: Sql,
  owner: Owner,
  e: { id: string; url: string; description: string; secretCiphertext: Buffer; secretHint: string },
  max: number,
): Promise<WebhookEndpoint> {
  return sql.begin(async (tx) => {
    await tx`select
      pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${owner.organizationId}:${owner.sandbox}`}, 0))`;
    const [held] = await tx<{ n: number; same: string | null }[]>`
      select count(*)::int as n, (array_agg(id) filter (where url = ${e.url}))[1] as same from webhook_endpoints
       where organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox} and deleted_at is null`;
    if (held!.n >= max) throw new EndpointLimitError(max);
    if (held!.same) throw new DuplicateEndpointError(held!.same);
    const [row] = await tx<EndpointRow[]>`
      insert into webhook_endpoints (id, organization_id, sandbox, url, description, secret_ciphertext, secret_hint)
      values (${e.id}, ${owner.organizationId}, ${owner.sandbox}, ${e.url}, ${e.description},
              ${e.secretCiphertext}, ${e.secretHint})
      returning *`;
    return toEndpoint(row!);
  });
}

export async function listEndpoints(sql: Sql, owner: Owner): Promise<WebhookEndpoint[]> {
  const rows = await sql<EndpointRow[]>`
    select * from webhook_endpoints
     where organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox} and deleted_at is null
     order by created_at, id`;
  return rows.map(toEndpoint);
}

/** The enabled endpoints a review's events go to, with their sealed secrets. */
export async function deliveryTargets(sql: Sql, owner: Owner): Promise<StoredEndpoint[]> {
  const rows = await sql<EndpointRow[]>`
    select * from webhook_endpoints
     where organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox}
       and deleted_at is null and enabled
     order by created_at, id`;
  return rows.map(toStored);
}

/** Soft-deletes an endpoint of this owner; false when there is none (unknown, foreign, other mode). */
export async function deleteEndpoint(sql: Sql, owner: Owner, id: string): Promise<boolean> {
  const rows = await sql`
    update webhook_endpoints set deleted_at = now(), enabled = false
     where id = ${id} and organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox}
       and deleted_at is null
    returning id`;
  return rows.length === 1;
}

/** One endpoint for a delivery attempt; undefined once it was deleted or disabled (nothing is sent then). */
export async function endpointForDelivery(sql: Sql, id: string): Promise<StoredEndpoint | undefined> {
  const [row] = await sql<EndpointRow[]>`
    select * from webhook_endpoints where id = ${id} and deleted_at is null and enabled`;
  return row && toStored(row);
}

/**
 * Seals every stored signing secret (deleted endpoints' too; one organization's when given) again with
 * `reseal`, in one transaction; returns how many. Run after a key rotation, so that the keys replaced can
 * be retired.
 */
export async function resealSecrets(
  sql: Sql,
  reseal: (sealed: Buffer, endpointId: string) => Buffer,
  organizationId?: string,
): Promise<number> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: string; secret_ciphertext: Buffer }[]>`
      select id, secret_ciphertext from webhook_endpoints
       where ${organizationId === undefined ? tx`true` : tx`organization_id = ${organizationId}`}
       for update`;
    for (const row of rows) {
      await tx`update webhook_endpoints set secret_ciphertext = ${reseal(row.secret_ciphertext, row.id)}
        where id = ${row.id}`;
    }
    return rows.length;
  });
}
