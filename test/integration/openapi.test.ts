// The OpenAPI 3.1 document is served at /v1/openapi.json, lints clean, and is readable at /docs with
// assets served locally. Every response the suite receives is validated against it (test/support/http.ts);
// these tests also show that validation can fail.
import test from 'ava';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { OpenApiValidator } from '../support/openapi-validator.js';
import { apiRoot, closeShared, stack } from '../support/stack.js';

test.after.always(closeShared);

const root = fileURLToPath(new URL('../..', import.meta.url));

async function served() {
  const res = await fetch(`${apiRoot}/v1/openapi.json`);
  return {
    status: res.status,
    doc: (await res.json()) as Record<string, unknown> & { paths: Record<string, unknown> },
  };
}

test('the document is served without a key, as OpenAPI 3.1 with the interface version', async (t) => {
  const { status, doc } = await served();
  t.is(status, 200);
  t.is(doc.openapi, '3.1.0');
  t.like(doc, { info: { version: '2026-05-30' }, servers: [{ url: stack.apiUrl }] });
  t.deepEqual(Object.keys(doc.paths).sort(), [
    '/events',
    '/reviews',
    '/reviews/{review_id}',
    '/reviews/{review_id}/documents',
    '/reviews/{review_id}/report',
    '/webhook-endpoints',
    '/webhook-endpoints/{id}',
    '/webhook-endpoints/{id}/deliveries',
    '/webhook-endpoints/{id}/rotate-secret',
  ]);
});

test('every response of every operation declares the X-Request-Id it carries', async (t) => {
  const { doc } = await served();
  t.truthy((doc.components as { headers: Record<string, unknown> }).headers.RequestId);
  t.regex((doc.info as { description: string }).description, /X-Request-Id/);
  let responses = 0;
  for (const [path, item] of Object.entries(
    doc.paths as Record<
      string,
      Record<string, { responses: Record<string, { headers?: Record<string, { $ref?: string }> }> }>
    >,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        responses += 1;
        t.is(response.headers?.['X-Request-Id']?.$ref, '#/components/headers/RequestId', `${method} ${path} ${status}`);
      }
    }
  }
  t.true(responses >= 9 * 6, `${responses} responses`);
});

test('redocly lint passes with no errors and no warnings', async (t) => {
  const { doc } = await served();
  const file = join(stack.dataDir, 'openapi.json');
  await writeFile(file, JSON.stringify(doc));
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=summary'],
    { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  const output = stdout + stderr;
  t.regex(output, /Your API description is valid/);
  // (Redocly prints a Node 20 deprecation banner; what counts is the lint result.)
  t.notRegex(output, /You have \d+ warnings?/);
  t.notRegex(output, /\berror\b/i);
});

test('/docs renders from local assets only', async (t) => {
  const page = await fetch(`${apiRoot}/docs/`);
  t.is(page.status, 200);
  const html = await page.text();
  t.regex(html, /swagger-ui/);
  t.notRegex(html, /(src|href)="https?:\/\//);
  for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-initializer.js']) {
    t.is((await fetch(`${apiRoot}/docs/${asset}`)).status, 200, asset);
  }
  t.regex(await (await fetch(`${apiRoot}/docs/swagger-initializer.js`)).text(), /\/v1\/openapi\.json/);
  t.is((await fetch(`${apiRoot}/docs`, { redirect: 'manual' })).status, 301);
});

test('the response validator rejects what the document does not allow', async (t) => {
  const { doc } = await served();
  const v = new OpenApiValidator(doc as never);
  const review = {
    review_id: '2b1e7a4e-8a51-4a8e-9b4b-1f0b0b0b0b0b',
    status: 'processing',
    review_type: 'mortgage_v1',
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    document_count: 0,
    label: null,
    reference_id: null,
    report_available: false,
    sandbox: false,
  };
  t.notThrows(() => v.check('GET', `/reviews/${review.review_id}`, 200, JSON.stringify(review)));
  t.throws(() => v.check('GET', `/reviews/${review.review_id}`, 200, JSON.stringify({ ...review, metadata: {} })), {
    message: /does not match/,
  });
  t.throws(() => v.check('GET', `/reviews/${review.review_id}`, 200, JSON.stringify({ ...review, status: 'done' })), {
    message: /does not match/,
  });
  t.throws(() => v.check('GET', '/reviews', 418, '{}'), { message: /not documented/ });
  t.throws(() => v.check('GET', '/nowhere', 200, '{}'), { message: /does not describe/ });
  t.throws(() => v.check('GET', '/nowhere', 404, '{"error":{"code":"x"}}'), { message: /does not match/ });
  t.notThrows(() => v.check('DELETE', '/webhook-endpoints/x', 204, ''));
  t.throws(() => v.check('DELETE', '/webhook-endpoints/x', 204, 'surprise'), { message: /without a body/ });
});

test(
  'request constraints the server enforces are stated: key and cursor lengths, review_type, HTTPS ' +
    'URLs, at least one document',
  async (t) => {
    const { doc } = await served();
    type Schema = {
      type?: string;
      minLength?: number;
      minItems?: number;
      enum?: string[];
      format?: string;
      pattern?: string;
      properties?: Record<string, Schema>;
      required?: string[];
      $ref?: string;
      items?: Schema;
    };
    const schemas = (doc as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
    const resolve = (s: Schema): Schema => (s.$ref ? schemas[s.$ref.split('/').at(-1)!]! : s);
    type Operation = {
      parameters?: { name: string; in: string; schema: Schema }[];
      requestBody: { content: Record<string, { schema: Schema }> };
    };
    const op = (path: string, method: string) => (doc.paths[path] as Record<string, Operation>)[method]!;
    const create = op('/reviews', 'post');
    t.is(create.parameters!.find((p) => p.name === 'Idempotency-Key')!.schema.minLength, 1);
    t.is(op('/reviews', 'get').parameters!.find((p) => p.name === 'cursor')!.schema.minLength, 1);
    for (const [name, operation] of [
      ['create', create],
      ['add documents', op('/reviews/{review_id}/documents', 'post')],
    ] as const) {
      const json = resolve(operation.requestBody.content['application/json']!.schema);
      t.true(json.required?.includes('documents'), name);
      t.is(json.properties!.documents!.minItems, 1, name);
      const url = resolve(resolve(json.properties!.documents!.items!)).properties!.url!;
      t.like(url, { format: 'uri', pattern: '^https://' }, name);
      t.is(operation.requestBody.content['multipart/form-data']!.schema.properties!.documents!.minItems, 1, name);
    }
    const createJson = resolve(create.requestBody.content['application/json']!.schema);
    t.deepEqual(createJson.properties!.review_type!.enum, ['mortgage_v1']);
    t.deepEqual(create.requestBody.content['multipart/form-data']!.schema.properties!.review_type!.enum, [
      'mortgage_v1',
    ]);
    const hook = resolve(
      (doc.paths['/webhook-endpoints'] as Record<string, Operation>).post!.requestBody.content['application/json']!
        .schema,
    );
    t.like(hook.properties!.url, { format: 'uri', pattern: '^https://' });
  },
);

test('every schema has a realistic example that its own schema accepts, and the closed sets are enums', async (t) => {
  const { doc } = await served();
  const validator = new OpenApiValidator(doc as unknown as ConstructorParameters<typeof OpenApiValidator>[0]);
  const schemas = (
    doc.components as {
      schemas: Record<string, { example?: unknown; properties?: Record<string, { enum?: string[] }> }>;
    }
  ).schemas;
  t.true(Object.keys(schemas).length >= 20);
  for (const [name, schema] of Object.entries(schemas)) {
    t.not(schema.example, undefined, name);
    t.notThrows(() => validator.checkSchema(name, schema.example), name);
  }
  // The check can fail: an example with a severity outside the set is refused.
  const issue = schemas.Issue!.example as Record<string, unknown>;
  t.throws(() => validator.checkSchema('Issue', { ...issue, severity: 'banana' }), { message: /severity/ });
  t.deepEqual(schemas.Issue!.properties!.severity!.enum, ['critical', 'high', 'medium', 'low', 'info']);
  t.deepEqual(schemas.Issue!.properties!.category!.enum, [
    'compliance',
    'documentation',
    'consistency',
    'income',
    'collateral',
  ]);
  t.deepEqual(schemas.Report!.properties!.outcome!.enum, ['clear', 'issues_found']);
  t.deepEqual(schemas.Disposition!.properties!.decision!.enum, [
    'cleared',
    'disputed',
    'cure_attached',
    'unrecognised',
  ]);
  t.deepEqual(schemas.WebhookPayload!.properties!.status!.enum, ['completed', 'failed']);
  t.deepEqual(schemas.WebhookPayload!.properties!.event!.enum, ['review.completed', 'review.failed', 'review.amended']);
});

test('every operation is tagged with its resource, and the tags are described', async (t) => {
  const { doc } = await served();
  const tags = (doc.tags as { name: string; description: string }[]).map((tag) => tag.name);
  t.deepEqual(tags, ['Reviews', 'Reports', 'Webhook endpoints', 'Webhooks', 'Events']);
  const tagged: Record<string, string[]> = {};
  for (const item of [...Object.values(doc.paths), ...Object.values(doc.webhooks as Record<string, unknown>)] as Record<
    string,
    { operationId: string; tags?: string[] }
  >[]) {
    for (const operation of Object.values(item)) {
      t.is(operation.tags?.length, 1, operation.operationId);
      (tagged[operation.tags![0]!] ??= []).push(operation.operationId);
    }
  }
  t.deepEqual(Object.fromEntries(Object.entries(tagged).map(([tag, ids]) => [tag, ids.sort()])), {
    Reviews: ['addDocuments', 'createReview', 'deleteReview', 'getReview', 'listReviews'],
    Reports: ['getReport'],
    'Webhook endpoints': [
      'createWebhookEndpoint',
      'deleteWebhookEndpoint',
      'listWebhookDeliveries',
      'listWebhookEndpoints',
      'rotateWebhookSecret',
    ],
    Webhooks: ['reviewAmended', 'reviewCompleted', 'reviewFailed'],
    Events: ['listEvents', 'resendEvent'],
  });
});
