// OTLP trace requests read back as a collector reads them: decoded by the protobuf code OpenTelemetry's
// JavaScript exporters are generated from (opentelemetry-proto), and a collector stand-in that keeps
// every request it is sent (the service's OTLPTraceExporter sends OTLP/HTTP protobuf).
import root from '@opentelemetry/otlp-transformer/build/src/generated/root.js';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

interface Message {
  decode(bytes: Uint8Array): object;
  toObject(message: object, options: object): unknown;
}

const exportRequest = (
  root as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Message } } } } };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** A request decoded to plain data, every default field present (ids in base64, times as decimal strings). */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  return exportRequest.toObject(exportRequest.decode(bytes), {
    longs: String,
    bytes: String,
    defaults: true,
    arrays: true,
    objects: true,
    oneofs: true,
  });
}

const keyValues = z.array(z.object({ key: z.string(), value: z.record(z.string(), z.unknown()) }));
const request = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: keyValues }),
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string() }),
          spans: z.array(
            z.object({
              traceId: z.string(),
              spanId: z.string(),
              parentSpanId: z.string(),
              name: z.string(),
              kind: z.number(),
              status: z.object({ code: z.number().optional() }).optional(),
              attributes: keyValues,
            }),
          ),
        }),
      ),
    }),
  ),
});

/** A span as a collector received it: ids in hex, attributes by key. */
export interface ReceivedSpan {
  service: unknown;
  scope: string;
  name: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  /** OTLP's span kind: 1 internal, 2 server, 3 client, ... */
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
  attributes: Record<string, unknown>;
}

const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

function byKey(pairs: z.infer<typeof keyValues>): Record<string, unknown> {
  // An AnyValue's one set field (`value` names which): stringValue, intValue (a decimal string), ...
  return Object.fromEntries(pairs.map(({ key, value }) => [key, value[value.value as string]]));
}

/** The spans of a request, flattened. */
export function receivedSpans(bytes: Uint8Array): ReceivedSpan[] {
  return request.parse(decodeTraceRequest(bytes)).resourceSpans.flatMap((r) =>
    r.scopeSpans.flatMap((s) =>
      s.spans.map((span) => ({
        service: byKey(r.resource.attributes)['service.name'],
        scope: s.scope.name,
        name: span.name,
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        kind: span.kind,
        status: span.status?.code ?? 0,
        attributes: byKey(span.attributes),
      })),
    ),
  );
}

/** A collector stand-in on this machine: answers every OTLP/HTTP trace request 200 and keeps its body. */
export async function traceCollector(): Promise<{
  url: string;
  requests: Uint8Array[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}> {
  const requests: Uint8Array[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type'] === 'application/x-protobuf')
        requests.push(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    spans: () => requests.flatMap(receivedSpans),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
