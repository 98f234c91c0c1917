// The codec server the Temporal UI (and `temporal workflow show --codec-endpoint`) calls to show the
// service's sealed payloads (payload-codec.ts) in the clear: POST /decode (and /encode, when enabled) with
// `{ "payloads": [{ "metadata": { "<key>": "<base64>" }, "data": "<base64>" }] }`, as Temporal's remote
// codec protocol has it. It opens whatever it is sent, so it answers only: a `Host` it is configured for
// (a page that reaches it by another name, DNS rebinding, is refused), the bearer token when one is
// configured (a client certificate where TLS asks for one), and CORS for the UI's origins only. The
// browser's preflight carries no credential, so it is answered for those origins alone and opens nothing
// (docs/operations.md, "Temporal payloads").
import { timingSafeEqual } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';

/** A request body is a page of a history's payloads: ample, but bounded. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const JsonPayloadSchema = z.object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() });
const CodecRequestSchema = z.object({ payloads: z.array(JsonPayloadSchema) });
export type JsonPayload = z.infer<typeof JsonPayloadSchema>;

export function payloadFromJson(p: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(p.data ?? '', 'base64'),
  };
}

export function payloadToJson(p: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  };
}

/** Who the codec server answers (src/config.ts, CODEC_SERVER_*). */
export interface CodecAccess {
  /** The UI origins a browser may call it from (CORS). */
  allowedOrigins: readonly string[];
  /** The `Host` values it answers, host:port. */
  allowedHosts: readonly string[];
  /** The bearer token every /decode and /encode must carry; none: no token asked (development, or mTLS). */
  token?: string | undefined;
  /** Whether /encode is served. */
  encode: boolean;
}

/** TLS material (PEM): with a client CA, only clients with a certificate it signed get a connection. */
export interface CodecTls {
  cert: Buffer;
  key: Buffer;
  clientCa?: Buffer;
}

/** The codec server: plain HTTP (the local stack's, on this host), or HTTPS, mutual when `tls` has a client CA. */
export function createCodecServer(codec: PayloadCodec, access: CodecAccess, tls?: CodecTls): HttpServer | HttpsServer {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void answer(codec, access, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { message: 'the payloads could not be processed' });
      else res.destroy();
    });
  };
  if (!tls) return createHttpServer(handler);
  const mutual = tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {};
  return createHttpsServer({ cert: tls.cert, key: tls.key, ...mutual }, handler);
}

/** What keeps a production codec server from starting: none when it asks for a credential. */
export function codecServerProblems(o: { token?: string; tls?: { clientCaFile?: string } }): string[] {
  return o.token || o.tls?.clientCaFile
    ? []
    : ['  CODEC_SERVER_TOKEN: must be set (or CODEC_SERVER_TLS_CLIENT_CA) when NODE_ENV=production'];
}

async function answer(
  codec: PayloadCodec,
  access: CodecAccess,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!access.allowedHosts.includes((req.headers.host ?? '').toLowerCase())) {
    send(res, 421, { message: 'not a host this codec server answers' });
    return;
  }
  const origin = req.headers.origin;
  if (origin && access.allowedOrigins.includes(origin)) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('vary', 'Origin');
  }
  if (req.method === 'OPTIONS') {
    res.setHeader('access-control-allow-methods', 'POST');
    res.setHeader('access-control-allow-headers', 'content-type, x-namespace, authorization');
    res.writeHead(204).end();
    return;
  }
  const path = new URL(req.url ?? '/', 'http://codec').pathname.replace(/\/+$/, '');
  const served = access.encode ? ['/decode', '/encode'] : ['/decode'];
  if (req.method !== 'POST' || !served.includes(path)) {
    send(res, 404, { message: `POST ${served.join(' or ')}` });
    return;
  }
  if (access.token !== undefined && !bearerIs(req.headers.authorization, access.token)) {
    res.setHeader('www-authenticate', 'Bearer');
    send(res, 401, { message: 'a bearer token is required' });
    return;
  }
  const body = await readBody(req);
  if (body === undefined) {
    send(res, 413, { message: `bodies of at most ${MAX_BODY_BYTES} bytes` });
    return;
  }
  let parsed: ReturnType<typeof CodecRequestSchema.safeParse> | undefined;
  try {
    parsed = CodecRequestSchema.safeParse(JSON.parse(body.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    send(res, 400, { message: 'expected { "payloads": [{ "metadata": { … }, "data": "<base64>" }] }' });
    return;
  }
  const payloads = parsed.data.payloads.map(payloadFromJson);
  let converted: Payload[];
  try {
    converted = path === '/decode' ? await codec.decode(payloads) : await codec.encode(payloads);
  } catch (err) {
    // A payload sealed with a key this server does not hold, or altered: said as such, not a 500.
    send(res, 422, { message: err instanceof Error ? err.message : 'the payloads could not be opened' });
    return;
  }
  send(res, 200, { payloads: converted.map(payloadToJson) });
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerIs(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The request's body, or undefined once it passes the limit (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
