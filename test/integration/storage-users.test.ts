// The service never runs as the object store's root: the launcher (setup, in Compose) makes a user per
// role with a policy of what that role does. The API streams uploads in (reading them while they are
// transient: it ingests a small create itself) and checks reports exist; report
// links are signed by a user that can read reports and nothing else (a link shows its signer's key id);
// the worker reads and writes the bucket.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { Client } from 'minio';
import { ReviewSchema } from '../../src/reviews/review.js';
import { ReportSchema } from '../../src/reviews/report.js';
import { SERVICE_USERS } from '../../src/storage/service-users.js';
import { TRANSIENT_TAG } from '../../src/storage/keys.js';
import { pdf } from '../support/fixtures.js';
import { call, form } from '../support/http.js';
import { closeShared, config, db, newOrganization, stack } from '../support/stack.js';

test.after.always(closeShared);

function clientAs(accessKey: string, secretKey: string): Client {
  const endpoint = config.minio.endpoint;
  // A connection per request: MinIO may close one after refusing a request, which a kept-alive socket
  // would carry into the next request as a reset.
  const transportAgent = new Agent({ keepAlive: false });
  return new Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port),
    useSSL: false,
    accessKey,
    secretKey,
    region: config.minio.region,
    transportAgent,
  });
}

async function refused(
  t: import('ava').ExecutionContext,
  what: string,
  attempt: () => Promise<unknown>,
): Promise<void> {
  const error = await t.throwsAsync(attempt, undefined, what);
  t.is((error as { code?: string } | undefined)?.code, 'AccessDenied', what);
}

/**
 * A write the user may not make fails and leaves nothing: MinIO refuses it before reading the body, which
 * the client sees as AccessDenied or as the connection reset under it.
 */
async function notWritten(t: import('ava').ExecutionContext, what: string, as: Client, key: string): Promise<void> {
  await t.throwsAsync(() => as.putObject(config.minio.bucket, key, Buffer.from('%PDF-1.7 forged')), undefined, what);
  const stat = await t.throwsAsync(() =>
    clientAs(stack.serviceEnv.S3_ACCESS_KEY!, stack.serviceEnv.S3_SECRET_KEY!).statObject(config.minio.bucket, key),
  );
  t.is((stat as { code?: string } | undefined)?.code, 'NotFound', `${what}: nothing was written`);
}

test(
  'report links are signed by the reports user; each role reaches what it does and nothing more; ' +
    'no service holds the root credentials',
  async (t) => {
    const org = await newOrganization();
    const created = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.sandboxKey,
      form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]),
    });
    t.is(created.status, 201, created.text);
    const { review_id } = ReviewSchema.parse(created.body);
    const report = ReportSchema.parse(
      (await call(stack.apiUrl, 'GET', `/reviews/${review_id}/report`, { key: org.sandboxKey })).body,
    );
    const link = new URL(report.report_pdf_url);
    t.true(
      link.searchParams.get('X-Amz-Credential')!.startsWith(`${SERVICE_USERS.reports}/`),
      link.searchParams.get('X-Amz-Credential')!,
    );
    t.is((await fetch(link)).status, 200, 'the link downloads the report');

    const [document] = await db()<
      { object_key: string }[]
    >`select object_key from documents where review_id = ${review_id}`;
    const [release] = await db()<
      { report_object_key: string }[]
    >`select report_object_key from releases where review_id = ${review_id}`;
    const bucket = config.minio.bucket;
    const api = stack.apiServiceEnv;
    const reports = clientAs(api.S3_PRESIGN_ACCESS_KEY!, api.S3_PRESIGN_SECRET_KEY!);
    const apiUser = clientAs(api.S3_ACCESS_KEY!, api.S3_SECRET_KEY!);
    const worker = clientAs(stack.serviceEnv.S3_ACCESS_KEY!, stack.serviceEnv.S3_SECRET_KEY!);
    t.is(api.S3_ACCESS_KEY, SERVICE_USERS.api);
    t.is(stack.serviceEnv.S3_ACCESS_KEY, SERVICE_USERS.worker);

    // The reports user: reports, read only.
    t.true((await reports.statObject(bucket, release!.report_object_key)).size > 0);
    await refused(t, 'reports user reads a document', () => reports.statObject(bucket, document!.object_key));
    await notWritten(t, 'reports user writes a report', reports, `reports/${review_id}/forged-by-reports.pdf`);
    await refused(t, 'reports user lists the bucket', async () => {
      for await (const o of reports.listObjectsV2(bucket, '', true)) void o;
    });

    // The API's user: uploads in and out again, never read back (the worker ingests them), reports checked,
    // documents never read, reports never written.
    const [refusedUpload, probe] = [`uploads/${org.id}/refused`, `uploads/${org.id}/probe`];
    for (const key of [refusedUpload, probe]) {
      await apiUser.putObject(bucket, key, Buffer.from('probe'));
      await apiUser.setObjectTagging(bucket, key, { [TRANSIENT_TAG.key]: TRANSIENT_TAG.value });
    }
    await refused(t, 'API user reads an upload', () => apiUser.getObject(bucket, probe));
    await apiUser.removeObject(bucket, refusedUpload);
    await refused(t, 'API user keeps an upload', () => apiUser.removeObjectTagging(bucket, probe, { versionId: '' }));
    t.true((await apiUser.statObject(bucket, release!.report_object_key)).size > 0);
    await refused(t, 'API user reads a document', () => apiUser.getObject(bucket, document!.object_key));
    await notWritten(t, 'API user writes a report', apiUser, `reports/${review_id}/forged-by-api.pdf`);
    await refused(t, 'API user removes a report', () => apiUser.removeObject(bucket, release!.report_object_key));

    // The worker's user: the bucket's objects.
    t.true((await worker.statObject(bucket, document!.object_key)).size > 0);
    await worker.removeObject(bucket, probe);

    // The root user is the launcher's only.
    const secrets = JSON.parse(readFileSync(join(stack.dataDir, 'secrets.json'), 'utf8')) as {
      minioAccessKey: string;
      minioSecretKey: string;
    };
    for (const env of [stack.serviceEnv, stack.apiServiceEnv]) {
      for (const value of Object.values(env)) {
        t.false(
          value.includes(secrets.minioAccessKey) || value.includes(secrets.minioSecretKey),
          'a service environment holds a root credential',
        );
      }
    }
  },
);
