// Organizations: the unit every piece of data is scoped to.
import { randomUUID } from 'node:crypto';
import type { Sql } from './client.js';

export interface Organization {
  id: string;
  name: string;
  rateLimitPerMinute: number | null;
  maxConcurrentAnalyses: number | null;
  releasePolicy: 'auto' | 'hold';
  awaitingDocumentsSeconds: number | null;
  /** Days after a review comes to rest (released or failed) until it is deleted; null keeps it. */
  retentionDays: number | null;
  createdAt: Date;
}

type OrganizationRow = {
  id: string;
  name: string;
  rate_limit_per_minute: number | null;
  max_concurrent_analyses: number | null;
  release_policy: 'auto' | 'hold';
  awaiting_documents_seconds: number | null;
  retention_days: number | null;
  created_at: Date;
};

function fromRow(r: OrganizationRow): Organization {
  return {
    id: r.id,
    name: r.name,
    rateLimitPerMinute: r.rate_limit_per_minute,
    maxConcurrentAnalyses: r.max_concurrent_analyses,
    releasePolicy: r.release_policy,
    awaitingDocumentsSeconds: r.awaiting_documents_seconds,
    retentionDays: r.retention_days,
    createdAt: r.created_at,
  };
}

export async function createOrganization(sql: Sql, name: string): Promise<Organization> {
  const [row] = await sql<OrganizationRow[]>`
    insert into organizations (id, name) values (${randomUUID()}, ${name}) returning *`;
  return fromRow(row!);
}

export async function getOrganization(sql: Sql, id: string): Promise<Organization | undefined> {
  const [row] = await sql<OrganizationRow[]>`select * from organizations where id = ${id}`;
  return row && fromRow(row);
}

export async function listOrganizations(sql: Sql): Promise<Organization[]> {
  const rows = await sql<OrganizationRow[]>`select * from organizations order by created_at, id`;
  return rows.map(fromRow);
}

/** Operator settings of an organization; null restores the configured default. */
export async function updateOrganizationPolicy(
  sql: Sql,
  id: string,
  p: Partial<
    Pick<
      Organization,
      'maxConcurrentAnalyses' | 'releasePolicy' | 'awaitingDocumentsSeconds' | 'rateLimitPerMinute' | 'retentionDays'
    >
  >,
): Promise<void> {
  const row: Record<string, unknown> = {};
  if (p.maxConcurrentAnalyses !== undefined) row.max_concurrent_analyses = p.maxConcurrentAnalyses;
  if (p.releasePolicy !== undefined) row.release_policy = p.releasePolicy;
  if (p.awaitingDocumentsSeconds !== undefined) row.awaiting_documents_seconds = p.awaitingDocumentsSeconds;
  if (p.rateLimitPerMinute !== undefined) row.rate_limit_per_minute = p.rateLimitPerMinute;
  if (p.retentionDays !== undefined) row.retention_days = p.retentionDays;
  if (Object.keys(row).length === 0) return;
  await sql`update organizations set ${sql(row)} where id = ${id}`;
}
