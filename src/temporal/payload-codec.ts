// Every payload the service hands Temporal (workflow inputs, update arguments and results, activity
// inputs and results, query answers, memos, and failures' messages and stack traces, which the failure
// converter makes payloads: failure-converter.cjs) is sealed with AES-256-GCM before it leaves the process, so
// the Temporal server, its database and whoever reads a history see no signed source URL, file name,
// label, metadata or finding: only `binary/encrypted` and the id of the key. The worker, the API and the
// admin CLI hold the key ring (TEMPORAL_PAYLOAD_KEY and the keys it replaced); operators read histories in
// the Temporal UI through the codec server (src/temporal/codec-server.ts). Search attributes stay plain:
// Temporal indexes them.
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import type { SecretRing } from '../secrets/ring.js';
import { secretsOf } from '../secrets/ring.js';
import { keyId, openSealed, seal } from '../secrets/sealing.js';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal } = proto;

export const ENCRYPTED_ENCODING = 'binary/encrypted';
const KEY_ID_METADATA = 'encryption-key-id';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class PayloadEncryptionCodec implements PayloadCodec {
  private readonly current: Buffer;
  private readonly currentId: Uint8Array;

  /** `ring`: the key new payloads are sealed with first, then the keys it replaced (still opened). */
  constructor(private readonly ring: SecretRing<Buffer>) {
    this.current = secretsOf(ring)[0]!;
    this.currentId = encoder.encode(keyId(this.current).toString('hex'));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => ({
      metadata: { encoding: encoder.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: this.currentId },
      data: seal(Buffer.from(temporal.api.common.v1.Payload.encode(payload).finish()), this.current),
    }));
  }

  /** Opens sealed payloads; any other (a payload written before encryption, or by a tool) passes as it is. */
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const encoding = payload.metadata?.encoding;
      if (!encoding || decoder.decode(encoding) !== ENCRYPTED_ENCODING) return payload;
      if (!payload.data) throw new Error('an encrypted payload without data');
      const opened = openSealed(Buffer.from(payload.data), this.ring);
      if (!opened) {
        const id = payload.metadata?.[KEY_ID_METADATA];
        throw new Error(
          `no key of TEMPORAL_PAYLOAD_KEY or TEMPORAL_PAYLOAD_KEY_PREVIOUS has id ` +
            `${id ? decoder.decode(id) : '(none)'}`,
        );
      }
      return temporal.api.common.v1.Payload.decode(opened) as Payload;
    });
  }
}
