// The codec server the Temporal UI (and `temporal workflow show --codec-endpoint`) calls to show the
// service's sealed payloads (payload-codec.ts) in the clear: POST /decode and /encode with
// `{ "payloads": [{ "metadata": { "<key>": "<base64>" }, "data": "<base64>" }] }`, as Temporal's remote
// codec protocol has it. The browser calls it directly, so it answers CORS for the UI's origins only. It
// opens whatever it is sent: it listens on this host by default and belongs behind whatever gives
// operators the UI (docs/operations.md, "Temporal payloads").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

export function createCodecServer(codec: PayloadCodec, allowedOrigins: readonly string[]): Server {
  return createServer((req, res) => {
    void answer(codec, allowedOrigins, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { message: 'the payloads could not be processed' });
      else res.destroy();
    });
  });
}

async function answer(
  codec: PayloadCodec,
  allowedOrigins: readonly string[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const origin = req.headers.origin;
  if (origin && allowedOrigins.includes(origin)) {
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
  if (req.method !== 'POST' || (path !== '/decode' && path !== '/encode')) {
    send(res, 404, { message: 'POST /decode or /encode' });
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
