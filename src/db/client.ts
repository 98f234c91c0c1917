// One postgres.js pool per process. Timestamps come back as Date, bigint sizes as numbers (our limits
// keep them far below 2^53).
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import postgres from 'postgres';
import type { Config } from '../config.js';

export type Sql = postgres.Sql;
/**
 * What a query function runs on: the pool, or a transaction of it (postgres.js types a transaction apart,
 * without the pool's methods such as begin and end, which such a function does not use).
 */
export type Queryable = Sql | postgres.TransactionSql;

/**
 * postgres.js's view of the configured database: the URL without libpq's TLS parameters (postgres.js
 * would send the file names to the server as settings) and TLS as they asked, in Node's terms.
 * `require` encrypts without checking the server (libpq checks it only when a root certificate is given,
 * as here), `verify-ca` checks the chain but not the name, `verify-full` both.
 */
export function databaseTarget(config: Pick<Config, 'database'>): {
  url: string;
  ssl?: postgres.Options<never>['ssl'];
} {
  const url = new URL(config.database.url);
  const given = url.searchParams.get('sslmode');
  for (const param of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey']) url.searchParams.delete(param);
  const tls = config.database.tls;
  if (!tls) {
    // postgres.js's own: `prefer` and `allow` try TLS without checking it; `disable` is none.
    if (given === 'prefer' || given === 'allow') return { url: url.toString(), ssl: given };
    return { url: url.toString(), ...(given === 'disable' ? { ssl: false } : {}) };
  }
  const { mode, ...files } = tls;
  const verify = mode !== 'require' || tls.ca !== undefined;
  return {
    url: url.toString(),
    ssl: {
      ...files,
      rejectUnauthorized: verify,
      // verify-full checks the name against the URL's host itself: postgres.js sends no server name for
      // an IP address, and Node would then check the certificate against "localhost". verify-ca: the
      // chain is checked, the name is not.
      checkServerIdentity:
        mode === 'verify-full'
          ? (_name: string, cert: PeerCertificate) => checkServerIdentity(url.hostname.replace(/^\[|\]$/g, ''), cert)
          : () => undefined,
    },
  };
}

export function createSql(config: Pick<Config, 'database'>, options: { max?: number } = {}): Sql {
  const { url, ssl } = databaseTarget(config);
  return postgres(url, {
    max: options.max ?? config.database.poolMax,
    ...(ssl !== undefined ? { ssl } : {}),
    // A failing database must surface as an error (auth_unavailable, 503 on /readyz), not as a hang.
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  });
}
