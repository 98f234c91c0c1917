// The codec server opens sealed payloads, so it answers only what it is configured for: a `Host` it
// knows (a page that reaches it by another name, DNS rebinding, is refused), the bearer token when one is
// set, CORS for the UI's origins, /encode only when enabled, and over mutual TLS only a client whose
// certificate its CA signed. A production codec server asks for a credential or does not start.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultPayloadConverter } from '@temporalio/common';
import { freePort } from '../../../scripts/stack/ports.js';
import { createClusterCertificates } from '../../../scripts/stack/test-certificates.js';
import {
  codecServerProblems,
  createCodecServer,
  payloadToJson,
  type CodecAccess,
  type CodecTls,
} from '../../../src/temporal/codec-server.js';
import { PayloadEncryptionCodec } from '../../../src/temporal/payload-codec.js';

const codec = new PayloadEncryptionCodec([randomBytes(32)]);
const converter = new DefaultPayloadConverter();
const TOKEN = 'a-token-of-at-least-thirty-two-characters';
const UI = 'http://127.0.0.1:8233';

/** A codec server on a port of its own, answering Host 127.0.0.1:<port>; closed when the test ends. */
async function serve(t: { teardown: (f: () => unknown) => void }, access: Partial<CodecAccess> = {}, tls?: CodecTls) {
  const port = await freePort();
  const server = createCodecServer(
    codec,
    { allowedOrigins: [UI], allowedHosts: [`127.0.0.1:${port}`], encode: false, token: TOKEN, ...access },
    tls,
  );
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((r) => server.close(r)));
  return port;
}

/** The body of a /decode of one sealed payload, as the UI sends it from a history. */
async function sealedBody(value: unknown) {
  const [sealed] = await codec.encode([converter.toPayload(value)]);
  return { payloads: [payloadToJson(sealed!)] };
}

/**
 * A POST as a browser or the CLI sends it (node:http, which sends the Host it is given, as a browser does);
 * over TLS when `tls` says whom to trust and which client certificate, if any, to present.
 */
async function post(
  port: number,
  path: string,
  o: { host?: string; token?: string; body?: unknown; tls?: { ca: Buffer; cert?: Buffer; key?: Buffer } } = {},
) {
  const body = JSON.stringify(o.body ?? (await sealedBody({ label: 'Smith refinance' })));
  const request = o.tls ? httpsRequest : httpRequest;
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          host: o.host ?? `127.0.0.1:${port}`,
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        },
        ...o.tls,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const opened = (text: string) =>
  (JSON.parse(text) as { payloads: { data: string }[] }).payloads.map((p) =>
    JSON.parse(Buffer.from(p.data, 'base64').toString()),
  );

test('with the token and a configured Host, /decode opens a sealed payload; without either, nothing', async (t) => {
  const port = await serve(t);
  const ok = await post(port, '/decode', { token: TOKEN });
  t.is(ok.status, 200, ok.text);
  t.deepEqual(opened(ok.text), [{ label: 'Smith refinance' }]);

  for (const token of [undefined, `${TOKEN}x`, TOKEN.slice(1), 'x'.repeat(TOKEN.length)]) {
    const refused = await post(port, '/decode', token ? { token } : {});
    t.is(refused.status, 401, String(token));
    t.false(refused.text.includes('Smith'));
  }
  // DNS rebinding: the browser sends the name the attacker's page was loaded from as Host.
  const rebound = await post(port, '/decode', { token: TOKEN, host: `evil.example:${port}` });
  t.is(rebound.status, 421);
  t.false(rebound.text.includes('Smith'));
});

test('/encode is served only when enabled, and then with the token too', async (t) => {
  const off = await serve(t);
  const body = { payloads: [payloadToJson(converter.toPayload({ forged: true }))] };
  t.is((await post(off, '/encode', { token: TOKEN, body })).status, 404);

  const on = await serve(t, { encode: true });
  t.is((await post(on, '/encode', { body })).status, 401);
  const sealed = await post(on, '/encode', { token: TOKEN, body });
  t.is(sealed.status, 200, sealed.text);
  t.false(sealed.text.includes(Buffer.from('forged').toString('base64')));
});

test("CORS answers the UI's origins only; the preflight, which carries no credential, opens nothing", async (t) => {
  const port = await serve(t);
  const preflight = (origin: string) =>
    fetch(`http://127.0.0.1:${port}/decode`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
  const ui = await preflight(UI);
  t.is(ui.status, 204);
  t.is(ui.headers.get('access-control-allow-origin'), UI);
  t.regex(ui.headers.get('access-control-allow-headers') ?? '', /authorization/);
  const other = await preflight('https://evil.example');
  t.is(other.headers.get('access-control-allow-origin'), null);
  t.is(await other.text(), '');
});

test('over mutual TLS, a client without a certificate its CA signed gets no answer; one with it does', async (t) => {
  const certs = await createClusterCertificates(await mkdtemp(join(tmpdir(), 'codec-tls-')));
  const ca = await readFile(certs.caFile);
  const tls = { cert: await readFile(certs.serverCertFile), key: await readFile(certs.serverKeyFile), clientCa: ca };
  const port = await serve(t, { token: undefined }, tls);
  await t.throwsAsync(post(port, '/decode', { tls: { ca } }));
  const client = { ca, cert: await readFile(certs.clientCertFile), key: await readFile(certs.clientKeyFile) };
  const ok = await post(port, '/decode', { tls: client });
  t.is(ok.status, 200, ok.text);
  t.deepEqual(opened(ok.text), [{ label: 'Smith refinance' }]);
});

test('in production a codec server that asks for no credential does not start', (t) => {
  t.deepEqual(codecServerProblems({}), [
    '  CODEC_SERVER_TOKEN: must be set (or CODEC_SERVER_TLS_CLIENT_CA) when NODE_ENV=production',
  ]);
  t.deepEqual(codecServerProblems({ token: TOKEN }), []);
  t.deepEqual(codecServerProblems({ tls: { clientCaFile: '/etc/codec/ca.pem' } }), []);
});
