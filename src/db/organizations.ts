// Organizations: the unit every piece of data is scoped to.
import { randomUUID } from 'node:crypto';
import type { Sql } from './client.js';

export interface Organization {
  id: string;
  name: string;
  rateLimitPerMinute: number | null;
  maxConcurrentAnalyses: number | null;
  releasePolicy: 'auto' | 'hold';
  createdAt: Date;
}

type OrganizationRow = {
  id: string;
  name: string;
  rate_limit_per_minute: number | null;
  max_concurrent_analyses: number | null;
  release_policy: 'auto' | 'hold';
  created_at: Date;
};

function fromRow(r: OrganizationRow): Organization {
  return {
    id: r.id,
    name: r.name,
    rateLimitPerMinute: r.rate_limit_per_minute,
    maxConcurrentAnalyses: r.max_concurrent_analyses,
    releasePolicy: r.release_policy,
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
