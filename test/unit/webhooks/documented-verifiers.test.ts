// The verifiers docs/api.md gives integrators (Node and Python) accept the service's signatures and
// refuse a changed body, another secret and an old timestamp: the code a receiver copies is checked here
// against the code that signs (src/webhooks/signature.ts).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signatureHeader } from '../../../src/webhooks/signature.js';

const api = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

/** The first code block of `language` that holds `marker`. */
function block(language: string, marker: string): string {
  const found = [...api.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))]
    .map((m) => m[1]!)
    .find((code) => code.includes(marker));
  if (!found) throw new Error(`docs/api.md has no ${language} block with ${marker}`);
  return found;
}

type Verify = (rawBody: string, header: string, secret: string) => boolean;

/** The Node verifier as documented, its crypto imports given to it. */
const nodeVerify: Verify = (() => {
  const source = block('js', 'function verify(').replace(/^import .*$/m, '');
  return new Function('createHmac', 'timingSafeEqual', `${source}\nreturn verify;`)(createHmac, timingSafeEqual);
})();

/** The Python verifier as documented (without its Flask route), run by python3 on each case. */
const pythonVerify: Verify = (rawBody, header, secret) => {
  const source = block('python', 'def verify(').split('@app.post')[0]!;
  const run = `${source}\nimport json, sys\na = json.loads(sys.argv[1])\nprint(verify(a[0].encode(), a[1], a[2]))\n`;
  return (
    execFileSync('python3', ['-c', run, JSON.stringify([rawBody, header, secret])], { encoding: 'utf8' }).trim() ===
    'True'
  );
};

const body = JSON.stringify({ id: 'e1', event: 'review.completed', review_id: 'r1', status: 'completed' });
const secret = 'whsec_current0000000000000000000000';
const previous = 'whsec_previous000000000000000000000';
const now = () => Math.floor(Date.now() / 1000);

for (const [language, verify] of [
  ['Node', nodeVerify],
  ['Python', pythonVerify],
] as const)
  test(`the documented ${language} verifier accepts the service's signature and refuses any other`, (t) => {
    t.true(verify(body, signatureHeader([secret], body, now()), secret));
    // During a rotation's overlap either secret verifies.
    t.true(verify(body, signatureHeader([secret, previous], body, now()), previous));
    t.false(
      verify(body.replace('completed', 'failed'), signatureHeader([secret], body, now()), secret),
      'a changed body',
    );
    t.false(verify(body, signatureHeader([previous], body, now()), secret), 'another secret');
    t.false(verify(body, signatureHeader([secret], body, now() - 600), secret), 'ten minutes old');
    t.false(verify(body, 'v1=00', secret), 'no timestamp');
  });
