// Temporal client for the API and the tooling. Lazy, so a process can start (and report not-ready)
// while the Temporal server is still coming up.
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.js';

export function createTemporalClient(config: Pick<Config, 'temporal'>): Client {
  const connection = Connection.lazy({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace });
}
