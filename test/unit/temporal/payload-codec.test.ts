// Payloads handed to Temporal are sealed (AES-256-GCM) and name their key; a rotation keeps what the
// previous key sealed readable, and a payload sealed with a key the ring lacks is refused by name.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { DefaultPayloadConverter } from '@temporalio/common';
import { ENCRYPTED_ENCODING, PayloadEncryptionCodec } from '../../../src/temporal/payload-codec.js';

const converter = new DefaultPayloadConverter();
const signedUrl = 'https://bank.example/loan.pdf?X-Amz-Signature=0123456789abcdef&X-Amz-Expires=300';

test(
  'a payload is sealed: its encoding says so, its bytes hold nothing of the value, and it opens ' +
    'to the payload it was',
  async (t) => {
    const codec = new PayloadEncryptionCodec([randomBytes(32)]);
    const payload = converter.toPayload({ sources: [{ url: signedUrl }], label: 'Smith refinance' });
    const [sealed] = await codec.encode([payload]);
    t.is(Buffer.from(sealed!.metadata!.encoding!).toString(), ENCRYPTED_ENCODING);
    t.regex(Buffer.from(sealed!.metadata!['encryption-key-id']!).toString(), /^[0-9a-f]{8}$/);
    const bytes = Buffer.from(sealed!.data!).toString('latin1');
    for (const secret of ['X-Amz-Signature', '0123456789abcdef', 'Smith', 'json/plain'])
      t.false(bytes.includes(secret), secret);
    const [opened] = await codec.decode([sealed!]);
    t.deepEqual(converter.fromPayload(opened!), { sources: [{ url: signedUrl }], label: 'Smith refinance' });
    // Sealed twice, never the same bytes (a fresh IV each time).
    const [again] = await codec.encode([payload]);
    t.notDeepEqual(Buffer.from(again!.data!), Buffer.from(sealed!.data!));
  },
);

test(
  'after a rotation the previous key still opens what it sealed; without it the payload is ' + 'refused naming its key',
  async (t) => {
    const previous = randomBytes(32);
    const current = randomBytes(32);
    const [old] = await new PayloadEncryptionCodec([previous]).encode([converter.toPayload('before the rotation')]);
    const rotated = new PayloadEncryptionCodec([current, previous]);
    t.is(converter.fromPayload((await rotated.decode([old!]))[0]!), 'before the rotation');
    const [fresh] = await rotated.encode([converter.toPayload('after')]);
    t.not(
      Buffer.from(fresh!.metadata!['encryption-key-id']!).toString(),
      Buffer.from(old!.metadata!['encryption-key-id']!).toString(),
      'new payloads name the new key',
    );
    const retired = new PayloadEncryptionCodec([current]);
    const error = await t.throwsAsync(retired.decode([old!]));
    t.true(error!.message.includes(Buffer.from(old!.metadata!['encryption-key-id']!).toString()), error!.message);
  },
);

test('a sealed payload altered in transit does not open', async (t) => {
  const codec = new PayloadEncryptionCodec([randomBytes(32)]);
  const [sealed] = await codec.encode([converter.toPayload('amount 412000')]);
  const data = Buffer.from(sealed!.data!);
  data[data.length - 1]! ^= 1;
  await t.throwsAsync(codec.decode([{ ...sealed!, data }]));
});

test('a payload that was never sealed passes as it is', async (t) => {
  const codec = new PayloadEncryptionCodec([randomBytes(32)]);
  const plain = converter.toPayload({ reviewId: 'r' });
  t.deepEqual(await codec.decode([plain]), [plain]);
});
