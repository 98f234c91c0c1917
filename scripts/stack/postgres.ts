// A private PostgreSQL cluster under the data directory. initdb and postgres refuse to run as root, so
// as root they run as the `postgres` system user (set as the child's uid/gid rather than through runuser,
// whose supervisor SIGKILLs its child two seconds after a SIGTERM — too soon for a clean shutdown).
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import postgres from 'postgres';
import { aptInstall } from './apt.js';
import { run, type ChildSpec } from './supervisor.js';

export interface PgUser {
  uid?: number;
  gid?: number;
}

function findOnPath(env: NodeJS.ProcessEnv, name: string): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}

function findBinDir(env: NodeJS.ProcessEnv): string | undefined {
  const onPath = findOnPath(env, 'initdb');
  if (onPath && existsSync(join(dirname(onPath), 'postgres'))) return dirname(onPath);
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

/** The directory holding initdb and postgres; installs Debian's postgresql when absent and we are root. */
export async function postgresBinDir(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  const found = findBinDir(env);
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'PostgreSQL server binaries (initdb, postgres) not found on PATH or under /usr/lib/postgresql; install them.',
    );
  }
  log('installing PostgreSQL from Debian packages (apt-get)');
  await aptInstall(env, ['postgresql'], signal);
  const installed = findBinDir(env);
  if (!installed) throw new Error('apt-get installed postgresql but initdb is still not found');
  return installed;
}

/** Who runs the server: ourselves, or the `postgres` system user when we are root. */
export async function postgresUser(): Promise<PgUser> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
    return { uid: await id('-u'), gid: await id('-g') };
  }
}

export interface ClusterOptions {
  binDir: string;
  dataDir: string;
  user: PgUser;
  superuser: string;
  password: string;
}

/** initdb once; a cluster that exists is left as it is. */
export async function initCluster(o: ClusterOptions, log: (line: string) => void, signal?: AbortSignal): Promise<void> {
  if (existsSync(join(o.dataDir, 'PG_VERSION'))) return;
  log('initialising PostgreSQL cluster');
  await mkdir(o.dataDir, { recursive: true, mode: 0o700 });
  const pwfile = join(o.dataDir, '..', `.pg-initpw-${process.pid}`);
  await writeFile(pwfile, `${o.password}\n`, { mode: 0o600 });
  if (o.user.uid !== undefined) {
    await chown(o.dataDir, o.user.uid, o.user.gid ?? o.user.uid);
    await chown(pwfile, o.user.uid, o.user.gid ?? o.user.uid);
  }
  try {
    await run(
      join(o.binDir, 'initdb'),
      ['-D', o.dataDir, '-U', o.superuser, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C'],
      { ...o.user, cwd: '/', signal },
    );
  } finally {
    await rm(pwfile, { force: true });
  }
}

export function postgresProcess(
  o: ClusterOptions & { port: number; logFile: string; durable: boolean; tls?: { certFile: string; keyFile: string } },
): ChildSpec {
  const settings = [
    'listen_addresses=127.0.0.1',
    `port=${o.port}`,
    // TCP only: no socket directory that may not exist or be writable.
    'unix_socket_directories=',
    'max_connections=200',
    // A throw-away test cluster trades durability for speed; the development cluster keeps it.
    ...(o.durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']),
    // TLS offered (not required): clients that ask for it, and verify the server, get it.
    ...(o.tls ? ['ssl=on', `ssl_cert_file=${o.tls.certFile}`, `ssl_key_file=${o.tls.keyFile}`] : []),
  ];
  return {
    name: 'postgres',
    command: join(o.binDir, 'postgres'),
    args: ['-D', o.dataDir, ...settings.flatMap((s) => ['-c', s])],
    cwd: '/',
    ...o.user,
    logFile: o.logFile,
    stopSignal: 'SIGINT',
    stopTimeoutMs: 30_000,
  };
}

/** Waits until the server accepts connections, then creates the database if it is missing. */
export async function ensureDatabase(url: URL, timeoutMs: number): Promise<void> {
  const database = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sql = postgres(admin.toString(), { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      const [row] = await sql`select 1 as ok from pg_database where datname = ${database}`;
      if (!row) await sql.unsafe(`create database "${database.replaceAll('"', '""')}"`);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not become ready: ${(err as Error).message}`);
      // Short: each interval adds to the start-up of everything that waits on the database.
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
}

/**
 * The server's certificate and key copied where the server's user may read them and nobody else (the
 * server refuses a key others can read), beside its data directory.
 */
export async function serverTlsFiles(
  o: ClusterOptions,
  from: { certFile: string; keyFile: string },
): Promise<{ certFile: string; keyFile: string }> {
  const dir = join(o.dataDir, '..', 'postgres-tls');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files = { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key') };
  await copyFile(from.certFile, files.certFile);
  await copyFile(from.keyFile, files.keyFile);
  await chmod(files.keyFile, 0o600);
  if (o.user.uid !== undefined) {
    for (const path of [dir, files.certFile, files.keyFile]) await chown(path, o.user.uid, o.user.gid ?? o.user.uid);
  }
  return files;
}
