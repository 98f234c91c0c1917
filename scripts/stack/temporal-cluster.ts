// A Temporal cluster as a lender would run one, for `npm run test:cluster`: the server built from the
// official server module (go-binaries.ts), its four services in one process, persistence in PostgreSQL
// (schemas set up by the server's own SQL tool), and TLS on every connection with client certificates
// required, at the frontend and between its services. The service reaches it as it would any secured
// cluster: TEMPORAL_TLS_CA, TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY and TEMPORAL_TLS_SERVER_NAME.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import type { ChildSpec } from './supervisor.js';
import { run } from './supervisor.js';
import { CLUSTER_SERVER_NAME, type ClusterCertificates } from './test-certificates.js';
import { SERVICE_DYNAMIC_CONFIG } from './temporal-settings.js';

export interface ClusterPorts {
  frontend: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

export interface ClusterDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
}

const DATABASES = { temporal: 'temporal', visibility: 'temporal_visibility' } as const;

/** The databases and their schemas, by the server's own tool and the schemas built into it; idempotent. */
export async function setUpClusterSchemas(sqlTool: string, db: ClusterDatabase, signal?: AbortSignal): Promise<void> {
  const common = ['--plugin', 'postgres12', '--ep', db.host, '-p', String(db.port), '-u', db.user, '--pw', db.password];
  for (const [schema, database] of [
    ['temporal', DATABASES.temporal],
    ['visibility', DATABASES.visibility],
  ] as const) {
    const tool = (...args: string[]) =>
      run(sqlTool, [...common, '--db', database, ...args], { ...(signal ? { signal } : {}) });
    // "already exists" on a second run is fine: the tool says so and exits 1 only without --quiet.
    await tool('--quiet', 'create-database');
    await tool('setup-schema', '-v', '0.0');
    await tool('update-schema', '--schema-name', `postgresql/v12/${schema}`);
  }
}

/** The server's configuration: every listener on 127.0.0.1, TLS with client certificates everywhere. */
function clusterConfig(o: {
  ports: ClusterPorts;
  certs: ClusterCertificates;
  db: ClusterDatabase;
  dynamicConfigFile: string;
}): string {
  const { ports, certs, db } = o;
  const server =
    `{ certFile: "${certs.serverCertFile}", keyFile: "${certs.serverKeyFile}", ` +
    `requireClientAuth: true, clientCaFiles: ["${certs.caFile}"] }`;
  const client = `{ serverName: "${CLUSTER_SERVER_NAME}", rootCaFiles: ["${certs.caFile}"] }`;
  const store = (database: string, conns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${db.host}:${db.port}"
        connectProtocol: "tcp"
        user: "${db.user}"
        password: "${db.password}"
        maxConns: ${conns}
        maxIdleConns: ${conns}
        maxConnLifetime: "1h"`;
  const service = (grpc: number, membership: number) => `
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnIP: "127.0.0.1"`;
  return `log:
  stdout: true
  level: warn

persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:${store(DATABASES.temporal, 20)}
    visibility:${store(DATABASES.visibility, 4)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  tls:
    internode:
      server: ${server}
      client: ${client}
    frontend:
      server: ${server}
      client: ${client}
    systemWorker:
      certFile: "${certs.serverCertFile}"
      keyFile: "${certs.serverKeyFile}"
      client: ${client}

services:
  frontend:${service(ports.frontend, ports.frontendMembership)}
  history:${service(ports.history, ports.historyMembership)}
  matching:${service(ports.matching, ports.matchingMembership)}
  worker:${service(ports.worker, ports.workerMembership)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: "${o.dynamicConfigFile}"
  pollInterval: "10s"
`;
}

// What the CLI's dev server sets too: a search attribute registered is usable at once, not a cache
// refresh later, and update-with-start (a create) is served; then the service's own (temporal-settings.ts).
const DYNAMIC_CONFIG = `system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
frontend.enableExecuteMultiOperation:
  - value: true
frontend.enableUpdateWorkflowExecution:
  - value: true
${SERVICE_DYNAMIC_CONFIG.map(({ key, value }) => `${key}:\n  - value: ${JSON.stringify(value)}\n`).join('')}`;

/** Writes the configuration under `dir` and returns how to run the server on it. */
export async function temporalClusterProcess(o: {
  bin: string;
  dir: string;
  ports: ClusterPorts;
  certs: ClusterCertificates;
  db: ClusterDatabase;
  logFile: string;
}): Promise<ChildSpec> {
  const configDir = join(o.dir, 'config');
  await mkdir(configDir, { recursive: true });
  const dynamicConfigFile = join(configDir, 'dynamic.yaml');
  await writeFile(dynamicConfigFile, DYNAMIC_CONFIG);
  await writeFile(
    join(configDir, 'cluster.yaml'),
    clusterConfig({ ports: o.ports, certs: o.certs, db: o.db, dynamicConfigFile }),
    { mode: 0o600 },
  );
  return {
    name: 'temporal',
    command: o.bin,
    args: ['--root', o.dir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'],
    logFile: o.logFile,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 30_000,
  };
}

/**
 * Registers the service's namespace once the frontend answers (over mTLS, as the service connects), and
 * waits until the frontend serves it (its namespace cache refreshes every few seconds).
 */
export async function ensureClusterNamespace(config: Pick<Config, 'temporal'>, timeoutMs: number): Promise<void> {
  const [{ connectTemporal }, { msToTs }] = await Promise.all([
    import('../../src/temporal/connection.js'),
    import('@temporalio/common/lib/time.js'),
  ]);
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const connection = await connectTemporal(config, { connectTimeout: 2_000 });
      try {
        const namespace = config.temporal.namespace;
        await connection.workflowService
          .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') })
          .catch((err: Error & { code?: number }) => {
            // ALREADY_EXISTS (6): registered by an earlier attempt.
            if (err.code !== 6) throw err;
          });
        await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      last = (err as Error).message;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(
    `the Temporal cluster did not serve namespace ${config.temporal.namespace} within ${timeoutMs / 1000}s: ${last}`,
  );
}
