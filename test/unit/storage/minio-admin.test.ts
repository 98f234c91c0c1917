// Setup provisions the service's MinIO users at every start, often right after MinIO itself started: a
// server still loading its users answers 503 XMinioServerNotInitialized, "please try again", and setup does;
// and it writes nothing until the server's first load of its users is over (which would drop it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { adminCall, putCannedPolicy, type MinioAdminTarget } from '../../../src/storage/minio-admin.js';
import { provisionServiceUsers } from '../../../src/storage/service-users.js';

/** A stand-in for MinIO's admin endpoint answering the statuses given, one a request, then the last again. */
async function adminEndpoint(
  statuses: number[],
): Promise<{ target: MinioAdminTarget; requests: () => number; paths: string[]; server: Server }> {
  let seen = 0;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const status = statuses[Math.min(seen++, statuses.length - 1)]!;
    paths.push(`${req.method} ${new URL(req.url!, 'http://x').pathname}`);
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end(
        status === 503
          ? '{"Code":"XMinioServerNotInitialized","Message":"Server not initialized yet, please try again."}'
          : '',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target = {
    endpoint: new URL(`http://127.0.0.1:${port}`),
    region: 'us-east-1',
    accessKey: 'root',
    secretKey: 'secret-key-1',
  };
  return { target, requests: () => seen, paths, server };
}

test('a call answered 503 while MinIO starts is tried again until it succeeds', async (t) => {
  const { target, requests, server } = await adminEndpoint([503, 503, 200]);
  try {
    await putCannedPolicy(target, 'loan-review-api', { Version: '2012-10-17', Statement: [] });
    t.is(requests(), 3);
  } finally {
    server.close();
  }
});

test('a server that stays unready fails the call once the retry time is over', async (t) => {
  const { target, requests, server } = await adminEndpoint([503]);
  try {
    await t.throwsAsync(adminCall(target, 'PUT', 'add-canned-policy', { name: 'x' }, Buffer.from('{}'), 600), {
      message: /add-canned-policy answered 503: .*XMinioServerNotInitialized/,
    });
    t.true(requests() >= 2, `${requests()} requests`);
  } finally {
    server.close();
  }
});

test('any other refusal fails at once', async (t) => {
  const { target, requests, server } = await adminEndpoint([403]);
  try {
    await t.throwsAsync(putCannedPolicy(target, 'loan-review-api', {}), { message: /answered 403/ });
    t.is(requests(), 1);
  } finally {
    server.close();
  }
});

test("provisioning first waits for the server's users to be loaded (tried again while it is not ready), then makes the policy, the user and attaches one to the other", async (t) => {
  const { target, paths, server } = await adminEndpoint([503, 200]);
  try {
    t.deepEqual(await provisionServiceUsers(target, 'loan-packages', { api: 'api-secret-1234' }), ['api']);
    t.deepEqual(paths, [
      'GET /minio/admin/v3/list-users',
      'GET /minio/admin/v3/list-users',
      'PUT /minio/admin/v3/add-canned-policy',
      'PUT /minio/admin/v3/add-user',
      'PUT /minio/admin/v3/set-user-or-group-policy',
    ]);
  } finally {
    server.close();
  }
});
