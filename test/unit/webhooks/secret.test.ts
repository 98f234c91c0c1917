// Signing secrets are random, shown once, hinted, and stored encrypted.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, generateSigningSecret, secretHint } from '../../../src/webhooks/secret.js';

test('secrets look like whsec_ and 32 random characters; the hint reveals only the last four', (t) => {
  const s = generateSigningSecret();
  t.regex(s, /^whsec_[0-9A-Za-z]{32}$/);
  t.not(s, generateSigningSecret());
  t.is(secretHint(s), `whsec_…${s.slice(-4)}`);
});

test('encryption round-trips, hides the secret, and detects tampering or the wrong key', (t) => {
  const key = randomBytes(32);
  const s = generateSigningSecret();
  const sealed = encryptSecret(s, key);
  t.false(sealed.includes(Buffer.from(s)));
  t.is(decryptSecret(sealed, key), s);
  t.notDeepEqual(encryptSecret(s, key), sealed);
  const tampered = Buffer.from(sealed);
  tampered[tampered.length - 1]! ^= 1;
  t.throws(() => decryptSecret(tampered, key));
  t.throws(() => decryptSecret(sealed, randomBytes(32)));
});
