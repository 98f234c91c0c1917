// Test-only TLS material: a throw-away CA and a server certificate it signs, so the suite can run HTTPS
// servers on this machine (signed source URLs, webhook receivers) that the services verify like any other.
// The services trust the CA only through NODE_EXTRA_CA_CERTS in the test environment; nothing in the
// service code knows about it. A second, self-signed certificate stands for a server nobody trusts.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** PEM of the CA the services are told to trust. */
  caFile: string;
  /** A server certificate for 127.0.0.1, ::1 and documents.example.com, signed by that CA. */
  certFile: string;
  keyFile: string;
  /** Self-signed, for the same names: a server whose certificate must be refused. */
  untrustedCertFile: string;
  untrustedKeyFile: string;
}

export const TEST_SERVER_NAME = 'documents.example.com';
const SUBJECT_ALT_NAMES = `subjectAltName=DNS:${TEST_SERVER_NAME},IP:127.0.0.1,IP:::1`;

async function openssl(args: string[], cwd: string): Promise<void> {
  await run('openssl', args, { cwd }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`openssl ${args[0]} failed: ${err.stderr ?? err.message}`);
  });
}

export async function createTestCertificates(dir: string): Promise<TestCertificates> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=loan-review test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  await openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${TEST_SERVER_NAME}`], dir);
  await writeFile(join(dir, 'server.ext'), `${SUBJECT_ALT_NAMES}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  await openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext'], dir);
  await openssl(['req', '-x509', ...ec, '-keyout', 'untrusted.key', '-out', 'untrusted.pem', '-days', '2',
    '-subj', `/CN=${TEST_SERVER_NAME}`, '-addext', SUBJECT_ALT_NAMES], dir);
  return {
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server.key'),
    untrustedCertFile: join(dir, 'untrusted.pem'),
    untrustedKeyFile: join(dir, 'untrusted.key'),
  };
}
