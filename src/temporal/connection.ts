// How every process of the service reaches Temporal: the API, the worker, the admin CLI and the
// search-attribute registration connect with these options, so a secured cluster (TLS, mTLS) or Temporal
// Cloud (TLS and an API key) is one set of settings (TEMPORAL_* in src/config.ts). And the data converter
// every client and worker uses (payloads sealed: payload-codec.ts; failures' messages and stack traces too:
// failure-converter.cjs). The API's client is lazy, so the API can start (and report not-ready) while the
// Temporal server is still coming up.
import { dirname, join } from 'node:path';
import { Client, Connection, type TLSConfig, type WorkflowClientInterceptor } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { BUILD_DIR } from '../build-output.js';
import type { Config } from '../config.js';
import { PayloadEncryptionCodec } from './payload-codec.js';

export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | true;
  apiKey?: string;
}

/** The connection options of Client connections and of the worker's NativeConnection alike. */
export function temporalConnectionOptions(config: Pick<Config, 'temporal'>): TemporalConnectionOptions {
  const { address, tls, apiKey } = config.temporal;
  const options: TemporalConnectionOptions = { address };
  if (tls) {
    const tlsConfig: TLSConfig = {
      ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
      ...(tls.ca ? { serverRootCACertificate: tls.ca } : {}),
      ...(tls.cert && tls.key ? { clientCertPair: { crt: tls.cert, key: tls.key } } : {}),
    };
    // TLS with the system's roots and no client certificate (Temporal Cloud with an API key): `true`.
    options.tls = Object.keys(tlsConfig).length > 0 ? tlsConfig : true;
  }
  if (apiKey) options.apiKey = apiKey;
  return options;
}

/** How the connection is secured, for the lines that say where a process connects. */
export function describeTemporalConnection(config: Pick<Config, 'temporal'>): string {
  const { address, tls, apiKey } = config.temporal;
  const how = !tls ? 'plaintext' : [tls.cert ? 'mTLS' : 'TLS', ...(apiKey ? ['API key'] : [])].join(' + ');
  return `${address} (namespace ${config.temporal.namespace}, ${how})`;
}

/**
 * The failure converter's module, which Temporal loads by its path (failure-converter.cjs). Named from the
 * repository's root (.build/'s parent), not from this module: compiled, this module is part of .build/*.js.
 */
export const FAILURE_CONVERTER_PATH = join(dirname(BUILD_DIR), 'src', 'temporal', 'failure-converter.cjs');

export function temporalDataConverter(config: Pick<Config, 'temporal'>): DataConverter {
  return {
    payloadCodecs: [new PayloadEncryptionCodec(config.temporal.payloadKeys)],
    failureConverterPath: FAILURE_CONVERTER_PATH,
  };
}

/** A connection made now: a failure to reach or to be let in by the server is thrown here. */
export function connectTemporal(
  config: Pick<Config, 'temporal'>,
  o: { connectTimeout?: number } = {},
): Promise<Connection> {
  return Connection.connect({ ...temporalConnectionOptions(config), ...o });
}

export function createTemporalClient(
  config: Pick<Config, 'temporal'>,
  interceptors: readonly WorkflowClientInterceptor[] = [],
): Client {
  const connection = Connection.lazy(temporalConnectionOptions(config));
  return new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: temporalDataConverter(config),
    interceptors: { workflow: [...interceptors] },
  });
}
