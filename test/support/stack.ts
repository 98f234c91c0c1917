// What a test file knows of the stack `npm test` started: its URLs, the service environment (to start
// more API or worker processes), and helpers to make organizations and keys directly in Postgres.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../../src/config.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { connectTemporal, temporalDataConverter } from '../../src/temporal/connection.js';
import { createApiKey } from '../../src/db/keys.js';
import { createOrganization, updateOrganizationPolicy, type Organization } from '../../src/db/organizations.js';

const DescriptorSchema = z.object({
  apiUrl: z.string(),
  dataDir: z.string(),
  logDir: z.string(),
  serviceEnv: z.record(z.string(), z.string()),
  apiServiceEnv: z.record(z.string(), z.string()),
  /** The operations servers (metrics, worker health) of the stack's API and two workers. */
  opsUrls: z.object({ api: z.string(), worker: z.string(), analysis: z.string() }),
  /** The stack's Temporal is a secured cluster (npm run test:cluster), not the dev server. */
  temporalCluster: z.boolean().default(false),
  tls: z.object({
    caFile: z.string(),
    certFile: z.string(),
    keyFile: z.string(),
    untrustedCertFile: z.string(),
    untrustedKeyFile: z.string(),
  }),
});

function descriptorPath(): string {
  const path = process.env.TEST_STACK_FILE;
  if (!path) throw new Error('TEST_STACK_FILE is not set: run the suite with `npm test`, which starts the stack.');
  return path;
}

export const stack = DescriptorSchema.parse(JSON.parse(readFileSync(descriptorPath(), 'utf8')));
export const config: Config = loadConfig(stack.serviceEnv);
export const apiRoot = stack.apiUrl.replace(/\/v1$/, '');

let sharedSql: Sql | undefined;
/** One small pool per test file; closed by `closeShared`. */
export function db(): Sql {
  sharedSql ??= createSql(config, { max: 4 });
  return sharedSql;
}

let sharedTemporal: Promise<Client> | undefined;
export function temporalClient(): Promise<Client> {
  sharedTemporal ??= connectTemporal(config).then(
    (connection) =>
      new Client({ connection, namespace: config.temporal.namespace, dataConverter: temporalDataConverter(config) }),
  );
  return sharedTemporal;
}

export async function closeShared(): Promise<void> {
  await sharedSql?.end({ timeout: 5 });
  if (sharedTemporal) await (await sharedTemporal).connection.close();
}

export interface TestOrganization {
  id: string;
  liveKey: string;
  sandboxKey: string;
}

export type OrganizationPolicy = Parameters<typeof updateOrganizationPolicy>[2] & Partial<Pick<Organization, 'name'>>;

/** A fresh organization with a live and a sandbox key, so tests never see each other's data. */
export async function newOrganization(policy: OrganizationPolicy = {}): Promise<TestOrganization> {
  const { name = 'test organization', ...settings } = policy;
  const org = await createOrganization(db(), name);
  await updateOrganizationPolicy(db(), org.id, settings);
  const live = await createApiKey(db(), { organizationId: org.id, sandbox: false });
  const sandbox = await createApiKey(db(), { organizationId: org.id, sandbox: true });
  return { id: org.id, liveKey: live.key, sandboxKey: sandbox.key };
}
