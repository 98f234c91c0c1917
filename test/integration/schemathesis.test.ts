// Schemathesis, pinned and installed from PyPI (scripts/stack/schemathesis.ts), generates requests from
// the served OpenAPI document (valid and invalid, every operation, then stateful sequences) and checks
// every answer with all of its checks: no server error, every status, header, content type and body as
// documented, invalid data refused, valid data accepted, authentication not ignored, a deleted resource
// gone. The run must find nothing.
import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ensureSchemathesis } from '../../scripts/stack/schemathesis.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization } from '../support/stack.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

test('Schemathesis with all checks finds no failure in any operation of the OpenAPI document', async (t) => {
  t.timeout(20 * 60_000);
  const schemathesis = await ensureSchemathesis(process.env, (line) => t.log(line));
  // An API of its own whose rate limit generated traffic cannot reach: 429 is not what is under test.
  const api = await services.api({ RATE_LIMIT_PER_MINUTE: '1000000' });
  const org = await newOrganization();
  const args = [
    ...schemathesis.slice(1),
    '--config-file',
    fileURLToPath(new URL('schemathesis.toml', import.meta.url)),
    'run',
    `${api.root}/v1/openapi.json`,
    '--url',
    api.url,
    '--checks',
    'all',
    '--header',
    `Authorization: Bearer ${org.liveKey}`,
    '--max-examples',
    '100',
    '--seed',
    '20261123',
    '--generation-database',
    'none',
    '--workers',
    '2',
    '--no-color',
  ];
  const child = spawn(schemathesis[0]!, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  const summary = output
    .split('\n')
    .filter((l) => /passed|failed|errors?|Test cases|Operations|warnings?/i.test(l))
    .slice(-12)
    .join('\n');
  t.log(summary);
  t.is(code, 0, output.slice(-20_000));
});
