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

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A CA valid two days: ca.pem and ca.key in `dir`. */
async function testCa(dir: string, name: string): Promise<void> {
  await openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
}

/** `<name>.pem` and `<name>.key`, signed by the CA in `dir`, with these X.509 extensions. */
async function signedByTestCa(dir: string, name: string, commonName: string, extensions: string): Promise<void> {
  await openssl(['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${commonName}`], dir);
  await writeFile(join(dir, `${name}.ext`), `${extensions}\nbasicConstraints=CA:FALSE\n`);
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ],
    dir,
  );
}

export async function createTestCertificates(dir: string): Promise<TestCertificates> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await testCa(dir, 'loan-review test CA');
  await signedByTestCa(dir, 'server', TEST_SERVER_NAME, `${SUBJECT_ALT_NAMES}\nextendedKeyUsage=serverAuth`);
  await openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'untrusted.key',
      '-out',
      'untrusted.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${TEST_SERVER_NAME}`,
      '-addext',
      SUBJECT_ALT_NAMES,
    ],
    dir,
  );
  return {
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server.key'),
    untrustedCertFile: join(dir, 'untrusted.pem'),
    untrustedKeyFile: join(dir, 'untrusted.key'),
  };
}

/** The name a secured test cluster's certificate carries (and clients check, TEMPORAL_TLS_SERVER_NAME). */
export const CLUSTER_SERVER_NAME = 'temporal.cluster.test';

export interface ClusterCertificates {
  caFile: string;
  /** The cluster's own: its frontend's server certificate, and its services' client certificate to each other. */
  serverCertFile: string;
  serverKeyFile: string;
  /** The service's client certificate (mTLS). */
  clientCertFile: string;
  clientKeyFile: string;
}

/** A CA, the cluster's certificate (server and client use) and a client certificate for the service. */
export async function createClusterCertificates(dir: string): Promise<ClusterCertificates> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await testCa(dir, 'loan-review test cluster CA');
  await signedByTestCa(
    dir,
    'cluster',
    CLUSTER_SERVER_NAME,
    `subjectAltName=DNS:${CLUSTER_SERVER_NAME},DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth`,
  );
  await signedByTestCa(dir, 'client', 'loan-review-service', 'extendedKeyUsage=clientAuth');
  return {
    caFile: join(dir, 'ca.pem'),
    serverCertFile: join(dir, 'cluster.pem'),
    serverKeyFile: join(dir, 'cluster.key'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client.key'),
  };
}
