// Temporal client for the API and the tooling, and the data converter every client and worker of the
// service uses (payloads sealed: payload-codec.ts). The client is lazy, so a process can start (and
// report not-ready) while the Temporal server is still coming up.
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { Config } from '../config.js';
import { PayloadEncryptionCodec } from './payload-codec.js';

export function temporalDataConverter(config: Pick<Config, 'temporal'>): DataConverter {
  return { payloadCodecs: [new PayloadEncryptionCodec(config.temporal.payloadKeys)] };
}

export function createTemporalClient(config: Pick<Config, 'temporal'>): Client {
  const connection = Connection.lazy({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: temporalDataConverter(config) });
}
