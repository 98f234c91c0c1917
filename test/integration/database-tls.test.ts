// PostgreSQL as a managed database is reached: over TLS as DATABASE_URL's libpq parameters ask
// (`sslmode=verify-full&sslrootcert=<CA file>`), the server's certificate checked against that CA and its
// name, and DATABASE_POOL_MAX connections per process. Shown against the stack's PostgreSQL, which offers
// TLS with a certificate of the suite's CA (for 127.0.0.1, not localhost).
import test from 'ava';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createSql } from '../../src/db/client.js';
import { call } from '../support/http.js';
import { TestServices } from '../support/services.js';
import { closeShared, stack } from '../support/stack.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

/** The stack's database URL with these query parameters, and `host` in place of 127.0.0.1 when given. */
function databaseUrl(params: Record<string, string>, host?: string): string {
  const url = new URL(stack.serviceEnv.DATABASE_URL!);
  if (host) url.hostname = host;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

async function sessionUsesTls(url: string): Promise<boolean> {
  const sql = createSql(loadConfig({ DATABASE_URL: url }), { max: 1 });
  try {
    const [row] = await sql<{ ssl: boolean }[]>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`;
    return row!.ssl;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

test('sslmode=verify-full with the CA file: the session is encrypted and the server checked', async (t) => {
  t.true(await sessionUsesTls(databaseUrl({ sslmode: 'verify-full', sslrootcert: stack.tls.caFile })));
  // Without the parameters, as the local stack connects: plain.
  t.false(await sessionUsesTls(stack.serviceEnv.DATABASE_URL!));
});

test(
  'a server the CA did not sign, or whose certificate names another host, is refused under ' + 'verify-full',
  async (t) => {
    const untrusted = await t.throwsAsync(
      sessionUsesTls(databaseUrl({ sslmode: 'verify-full', sslrootcert: stack.tls.untrustedCertFile })),
    );
    t.regex(String((untrusted as { code?: string }).code ?? untrusted!.message), /CERT|SIGNATURE|ISSUER/i);
    const otherName = await t.throwsAsync(
      sessionUsesTls(databaseUrl({ sslmode: 'verify-full', sslrootcert: stack.tls.caFile }, 'localhost')),
    );
    t.is((otherName as { code?: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID');
    // verify-ca checks the chain only; require encrypts without a check when no CA is given (libpq's meanings).
    t.true(await sessionUsesTls(databaseUrl({ sslmode: 'verify-ca', sslrootcert: stack.tls.caFile }, 'localhost')));
    t.true(await sessionUsesTls(databaseUrl({ sslmode: 'require' })));
  },
);

test('a CA file that cannot be read is a configuration error naming it, at start', (t) => {
  const error = t.throws(
    () => loadConfig({ DATABASE_URL: databaseUrl({ sslmode: 'verify-full', sslrootcert: '/nonexistent/ca.pem' }) }),
    { instanceOf: ConfigError },
  );
  t.regex(error!.message, /DATABASE_URL: sslrootcert: cannot read \/nonexistent\/ca\.pem \(ENOENT\)/);
  const orphan = t.throws(() => loadConfig({ DATABASE_URL: databaseUrl({ sslrootcert: stack.tls.caFile }) }), {
    instanceOf: ConfigError,
  });
  t.regex(orphan!.message, /need sslmode=require, verify-ca or verify-full/);
});

test('DATABASE_POOL_MAX is the connections one process opens, however many queries wait', async (t) => {
  const sql = createSql(loadConfig({ DATABASE_URL: stack.serviceEnv.DATABASE_URL!, DATABASE_POOL_MAX: '3' }));
  try {
    const pids = await Promise.all(
      Array.from(
        { length: 12 },
        async () => (await sql<{ pid: number }[]>`select pg_backend_pid() as pid, pg_sleep(0.2)`)[0]!.pid,
      ),
    );
    t.is(new Set(pids).size, 3);
  } finally {
    await sql.end({ timeout: 5 });
  }
});

test('the API runs on a verify-full database URL: ready, and answering from it', async (t) => {
  const api = await services.api({
    DATABASE_URL: databaseUrl({ sslmode: 'verify-full', sslrootcert: stack.tls.caFile }),
  });
  const ready = await call(api.root, 'GET', '/readyz');
  t.is(ready.status, 200, ready.text);
  t.like(ready.body, { checks: { postgres: 'ok' } });
});
