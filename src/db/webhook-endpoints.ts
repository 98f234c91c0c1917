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
  previous_secret_ciphertext: Buffer | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
};

export interface StoredEndpoint {
  endpoint: WebhookEndpoint;
  secretCiphertext: Buffer;
  /** The secret a rotation replaced, while its overlap lasts: deliveries are signed with both. */
  previousSecretCiphertext: Buffer | undefined;
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

function toStored(r: EndpointRow, now = new Date()): StoredEndpoint {
  const overlapping = r.previous_secret_ciphertext !== null && (r.previous_secret_expires_at ?? now) > now;
  return {
    endpoint: toEndpoint(r),
    secretCiphertext: r.secret_ciphertext,
    previousSecretCiphertext: overlapping ? (r.previous_secret_ciphertext ?? undefined) : undefined,
    organizationId: r.organization_id,
  };
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
  return rows.map((r) => toStored(r));
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

/** Whether this owner (organization and mode) has this endpoint, enabled and not deleted. */
export async function ownsEndpoint(sql: Sql, owner: Owner, id: string): Promise<boolean> {
  const rows = await sql`
    select 1 from webhook_endpoints
     where id = ${id} and organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox}
       and deleted_at is null and enabled`;
  return rows.length === 1;
}

/** One endpoint for a delivery attempt; undefined once it was deleted or disabled (nothing is sent then). */
export async function endpointForDelivery(sql: Sql, id: string): Promise<StoredEndpoint | undefined> {
  const [row] = await sql<EndpointRow[]>`
    select * from webhook_endpoints where id = ${id} and deleted_at is null and enabled`;
  return row && toStored(row);
}

/**
 * Gives an endpoint of this owner a new signing secret; the one it replaces keeps signing beside it for
 * `overlapSeconds` (none: it stops at once), replacing any earlier predecessor. Undefined when there is no
 * such endpoint (unknown, foreign, other mode, deleted).
 */
export async function rotateEndpointSecret(
  sql: Sql,
  owner: Owner,
  id: string,
  next: { secretCiphertext: Buffer; secretHint: string; overlapSeconds: number },
): Promise<{ endpoint: WebhookEndpoint; previousSecretExpiresAt: Date | null } | undefined> {
  const overlap = next.overlapSeconds > 0;
  const [row] = await sql<EndpointRow[]>`
    update webhook_endpoints
       set previous_secret_ciphertext = ${overlap ? sql`secret_ciphertext` : null},
           previous_secret_expires_at = ${overlap ? sql`now() + ${next.overlapSeconds} * interval '1 second'` : null},
           secret_ciphertext = ${next.secretCiphertext},
           secret_hint = ${next.secretHint}
     where id = ${id} and organization_id = ${owner.organizationId} and sandbox = ${owner.sandbox}
       and deleted_at is null
    returning *`;
  return row && { endpoint: toEndpoint(row), previousSecretExpiresAt: row.previous_secret_expires_at };
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
    const rows = await tx<{ id: string; secret_ciphertext: Buffer; previous_secret_ciphertext: Buffer | null }[]>`
      select id, secret_ciphertext, previous_secret_ciphertext from webhook_endpoints
       where ${organizationId === undefined ? tx`true` : tx`organization_id = ${organizationId}`}
       for update`;
    for (const row of rows) {
      const previous = row.previous_secret_ciphertext;
      await tx`update webhook_endpoints set secret_ciphertext = ${reseal(row.secret_ciphertext, row.id)},
                 previous_secret_ciphertext = ${previous === null ? null : reseal(previous, row.id)}
        where id = ${row.id}`;
    }
    return rows.length;
  });
}
