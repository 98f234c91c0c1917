// Signing secrets are random, shown once, hinted, and stored encrypted.
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { decryptSecret, encryptSecret, generateSigningSecret, secretHint } from '../../../src/webhooks/secret.js';

test('secrets look like whsec_ and 32 random characters; the hint reveals only the last four', (t) => {
  const s = generateSigningSecret();
  t.regex(s, /^whsec_[0-9A-Za-z]{32}$/);
  t.not(s, generateSigningSecret());
  t.is(secretHint(s), `whsec_…${s.slice(-4)}`);
});

test('encryption round-trips, hides the secret, and detects tampering or the wrong key', (t) => {
  const key = randomBytes(32);
  const endpoint = randomUUID();
  const s = generateSigningSecret();
  const sealed = encryptSecret(s, key, endpoint);
  t.false(sealed.includes(Buffer.from(s)));
  t.is(decryptSecret(sealed, key, endpoint), s);
  t.notDeepEqual(encryptSecret(s, key, endpoint), sealed);
  const tampered = Buffer.from(sealed);
  tampered[tampered.length - 1]! ^= 1;
  t.throws(() => decryptSecret(tampered, key, endpoint));
  t.throws(() => decryptSecret(sealed, randomBytes(32), endpoint));
});

test("a sealed secret is bound to its endpoint: copied onto another endpoint's row it does not open", (t) => {
  const key = randomBytes(32);
  const sealed = encryptSecret(generateSigningSecret(), key, randomUUID());
  t.throws(() => decryptSecret(sealed, key, randomUUID()));
});

test('a sealed secret names its key: after a rotation the ring opens it with that key, whichever comes first', (t) => {
  const [older, newer] = [randomBytes(32), randomBytes(32)];
  const endpoint = randomUUID();
  const s = generateSigningSecret();
  t.is(decryptSecret(encryptSecret(s, older, endpoint), [newer, older], endpoint), s);
  t.is(decryptSecret(encryptSecret(s, newer, endpoint), [newer, older], endpoint), s);
  t.throws(() => decryptSecret(encryptSecret(s, older, endpoint), [newer], endpoint));
});

test('a sealed secret opens only as sealed: not for another endpoint, not without its version byte', (t) => {
  const key = randomBytes(32);
  const endpoint = randomUUID();
  const sealed = encryptSecret(generateSigningSecret(), key, endpoint);
  t.throws(() => decryptSecret(sealed, [key], randomUUID()), { message: /opens with none of the configured keys/ });
  t.throws(() => decryptSecret(sealed.subarray(1), [key], endpoint), { message: /opens with none/ });
});
