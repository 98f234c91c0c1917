// Requests Node's HTTP parser refuses itself, and bodies that stall, are answered like every other refusal:
// the error envelope (`invalid_request`) with an X-Request-Id, at the status the limits in docs/api.md
// give (400 malformed framing, 408 a stalled body, 414 a URL over 8 KiB, 431 headers over 16 KiB), and a
// stalled upload leaves nothing staged.
import test from 'ava';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { apiRoot, closeShared, newOrganization, stack } from '../support/stack.js';
import { keysUnder } from '../support/objects.js';
import { BODY_IDLE_MS } from '../../api/http-layer.js';

test.after.always(closeShared);

const api = new URL(apiRoot);

/** Sends raw bytes on a fresh connection and returns everything the server answers until it closes. */
function raw(bytes: Buffer | string, o: { thenSend?: Buffer } = {}): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(Number(api.port), api.hostname);
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => (reset = true));
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), reset }));
    socket.write(bytes);
    if (o.thenSend) socket.write(o.thenSend);
  });
}

/** The status line's code, the X-Request-Id and the error envelope's code of a raw answer. */
function parsed(text: string): { status: number; requestId: string | undefined; code: string | undefined } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const requestId = /^x-request-id: (.+)$/im.exec(head)?.[1]?.trim();
  let code: string | undefined;
  try {
    code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status, requestId, code };
}

const host = `Host: ${api.host}\r\n`;

for (const [what, bytes, status] of [
  [
    'a chunk size that is not hexadecimal',
    `POST /v1/reviews HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
    400,
  ],
  [
    'Content-Length beside chunked',
    `POST /v1/reviews HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    400,
  ],
  ['a header over 16 KiB', `GET /v1/reviews HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`, 431],
  ['a request line that is not HTTP', `BREW /v1/reviews HTCPCP/1.0\r\n\r\n`, 400],
] as const) {
  test(`malformed HTTP, ${what}: ${status} invalid_request in the envelope with an X-Request-Id`, async (t) => {
    const { text } = await raw(bytes);
    const answer = parsed(text);
    t.is(answer.status, status, text.slice(0, 300));
    t.is(answer.code, 'invalid_request');
    t.regex(answer.requestId ?? '', /^[0-9a-f-]{36}$/);
  });
}

test('a 10 MB query is answered 414 invalid_request, the answer read whole (no reset)', async (t) => {
  const line = `GET /v1/reviews?q=${'x'.repeat(10 * 1024 * 1024)} HTTP/1.1\r\n${host}\r\n`;
  const { text } = await raw(line);
  const answer = parsed(text);
  t.is(answer.status, 414, text.slice(0, 300));
  t.is(answer.code, 'invalid_request');
  t.truthy(answer.requestId);
  // The API still serves.
  t.is((await fetch(`${apiRoot}/healthz`)).status, 200);
});

test('a URL over 8 KiB that the header limit lets through is 414 invalid_request', async (t) => {
  const org = await newOrganization();
  const res = await fetch(`${stack.apiUrl}/reviews?cursor=${'c'.repeat(9 * 1024)}`, {
    headers: { authorization: `Bearer ${org.liveKey}` },
  });
  t.is(res.status, 414);
  t.is(((await res.json()) as { error: { code: string } }).error.code, 'invalid_request');
  t.truthy(res.headers.get('x-request-id'));
});

/** Starts a create (multipart, or JSON) whose body then goes on as `trickle` says; resolves with the answer. */
function stalledCreate(
  key: string,
  trickle: (write: (b: string | Buffer) => boolean) => () => void,
  kind: 'multipart' | 'json' = 'multipart',
) {
  const boundary = 'stalled-boundary';
  return new Promise<{ status: number; body: string; requestId: string | undefined; seconds: number }>(
    (resolve, reject) => {
      const started = Date.now();
      const req = request(`${stack.apiUrl}/reviews`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(kind === 'multipart'
            ? {
                'content-type': `multipart/form-data; boundary=${boundary}`,
                'content-length': String(10 * 1024 * 1024),
              }
            : { 'content-type': 'application/json', 'content-length': String(64 * 1024) }),
        },
      });
      let stop = () => {};
      req.on('error', reject);
      req.on('response', (res) => {
        stop();
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            body,
            requestId: res.headers['x-request-id'] as string | undefined,
            seconds: (Date.now() - started) / 1000,
          });
          req.destroy();
        });
      });
      if (kind === 'json') {
        req.write('{"reference_id": "slow", "documents": [');
      } else {
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="documents"; ` +
            `filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
        );
        // Some bytes, enough that a part of the file is being staged when the body stops.
        req.write(randomBytes(256 * 1024));
      }
      stop = trickle((b) => req.write(b));
    },
  );
}

test(
  'a body, multipart or JSON, that stops or trickles at 1 byte a second is answered 408 invalid_request ' +
    "after 30 s (never the request deadline's 503) and leaves nothing staged",
  async (t) => {
    const org = await newOrganization();
    const dripping = (write: (b: string | Buffer) => boolean) => {
      const timer = setInterval(() => write(' '), 1_000);
      return () => clearInterval(timer);
    };
    const [stopped, trickling, stoppedJson, tricklingJson] = await Promise.all([
      stalledCreate(org.liveKey, () => () => {}),
      stalledCreate(org.liveKey, dripping),
      stalledCreate(org.liveKey, () => () => {}, 'json'),
      stalledCreate(org.liveKey, dripping, 'json'),
    ]);
    for (const [what, answer] of [
      ['stopped', stopped],
      ['trickling', trickling],
      ['stopped JSON', stoppedJson],
      ['trickling JSON', tricklingJson],
    ] as const) {
      t.is(answer.status, 408, `${what}: ${answer.body}`);
      t.is((JSON.parse(answer.body) as { error: { code: string } }).error.code, 'invalid_request');
      t.truthy(answer.requestId);
      // Refused once a whole window has passed without enough bytes, and not long after.
      t.true(
        answer.seconds >= BODY_IDLE_MS / 1000 && answer.seconds < BODY_IDLE_MS / 1000 + 15,
        `${what}: answered after ${answer.seconds} s`,
      );
    }
    const prefix = `uploads/${org.id}/`;
    for (let i = 0; i < 100 && (await keysUnder(prefix)).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    t.deepEqual(await keysUnder(prefix), []);
  },
);
