// A client generated from the OpenAPI document (openapi-typescript) types every closed set of the
// interface as a union, and every operation's parameters and bodies (the list filters, events, secret
// rotation, an error's param): compiled with `tsc --strict`, the enums' values type-check and anything else,
// 'banana' for a severity, is a compile error.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../../api/openapi.js';
import { ERROR_CODES } from '../../src/errors/catalog.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** Compiles `use.ts` beside the generated client under --strict; the compiler's output, or '' when it passes. */
async function compile(dir: string, use: string): Promise<string> {
  await writeFile(join(dir, 'use.ts'), use);
  try {
    await promisify(execFile)(
      process.execPath,
      [
        tsc,
        '--strict',
        '--noEmit',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        join(dir, 'use.ts'),
      ],
      { cwd: dir },
    );
    return '';
  } catch (err) {
    return (err as { stdout?: string }).stdout ?? String(err);
  }
}

test('a client generated from the document compiles under --strict, covers every operation, and refuses a value outside an enum', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const doc = buildOpenApiDocument('https://api.example');
  const client = astToString(await openapiTS(JSON.parse(JSON.stringify(doc))));
  await writeFile(join(dir, 'client.ts'), client);
  // Every operation of the document is one of the client's.
  const operationIds = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => op.operationId ?? []),
  );
  t.true(operationIds.length >= 12, operationIds.join(', '));
  for (const id of operationIds) t.true(client.includes(`    ${id}: {`), `the client has ${id}`);
  const header =
    `import type { components, operations } from './client.js';\ntype S = components['schemas'];\n` +
    `type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;\n`;

  // Every closed set's values, as an integrator's code would use them.
  const typed =
    `${header}
export const severity: S['Issue']['severity'][] = ['critical', 'high', 'medium', 'low', 'info'];
export const category: S['Issue']['category'][] = ['compliance', 'documentation', 'consistency', ` +
    `'income', 'collateral'];
export const outcome: S['Report']['outcome'][] = ['clear', 'issues_found'];
export const status: S['Review']['status'][] = ['queued', 'processing', 'awaiting_documents', 'completed', 'failed'];
export const decision: S['Disposition']['decision'][] = ['cleared', 'disputed', 'cure_attached', 'unrecognised'];
export const dispositionOutcome: S['Disposition']['outcome'][] = ['applied', 'skipped', 'failed'];
export const code: S['Error']['error']['code'][] = ${JSON.stringify(ERROR_CODES)};
export const event: S['WebhookPayload']['event'][] = ['review.completed', 'review.failed', 'review.amended'];
export const eventStatus: S['WebhookPayload']['status'][] = ['completed', 'failed'];
export const evidence: S['Issue']['evidence'][number] = { document: 'cd.pdf', page: 5, field: 'apr', value: null };
export const findingId: S['Disposition']['finding_id'] = 'DOC-001:urla';
export const reviews: Query<'listReviews'> = {
  status: 'failed', reference_id: 'LN-1', created_after: '2026-11-01T00:00:00Z', created_before: '2026-12-01T00:00:00Z',
};
export const events: Query<'listEvents'> = { type: 'review.amended', review_id: '6f0c1e52-8a7d-4b3e-9c21-5d4a3b2e1f90' };
export const eventPage: S['EventList']['data'][number]['id'] = '6f0c1e52-8a7d-4b3e-9c21-5d4a3b2e1f90';
export const resend: S['ResendEventRequest'] = { event_id: '6f0c1e52-8a7d-4b3e-9c21-5d4a3b2e1f90' };
export const rotate: S['RotateWebhookSecret'] = { previous_secret_overlap_seconds: 0 };
export const rotatedUntil: S['RotatedWebhookEndpoint']['previous_secret_expires_at'] = null;
export const param: S['Error']['error']['param'] = 'documents[0].url';
`;
  t.is(await compile(dir, typed), '');

  const banana = `${header}\nexport const severity: S['Issue']['severity'] = 'banana';\n`;
  const refused = await compile(dir, banana);
  t.regex(refused, /use\.ts\(\d+,\d+\): error TS2322: Type '"banana"' is not assignable to type '([^']*)'/);
  // The type it names is the union of the five severities (in the compiler's order).
  const union = /is not assignable to type '([^']*)'/.exec(refused)![1]!.split(' | ').sort();
  t.deepEqual(union, ['"critical"', '"high"', '"info"', '"low"', '"medium"']);
  for (const [where, value] of [
    ["S['Issue']['category']", 'banana'],
    ["S['Report']['outcome']", 'banana'],
    ["S['Disposition']['decision']", 'approve'],
    ["S['Error']['error']['code']", 'not_a_code'],
    ["S['WebhookPayload']['event']", 'review.banana'],
    ["Query<'listReviews'>['status']", 'done'],
    ["Query<'listEvents'>['type']", 'review.banana'],
  ]) {
    t.regex(await compile(dir, `${header}\nexport const v: ${where} = '${value}';\n`), /error TS2322/, where);
  }
});
