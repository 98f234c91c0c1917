// An HTTPS server on this machine standing in for an integrator's webhook receiver: it records every
// delivery (arrival time, headers, raw body) and answers as the test scripts it, request by request.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stack } from './stack.js';

export interface ReceivedDelivery {
  /** performance.now() when the request arrived. */
  at: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How to answer the n-th request (0-based): a status, or a delay before the status. */
export type Answer = number | { status: number; delayMs: number };

export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private answers: Answer[] = [];
  private fallback: Answer = 200;

  private constructor(private readonly server: Server) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      const at = performance.now();
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ at, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = this.answers.shift() ?? this.fallback;
        const { status, delayMs } = typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
        const timer = setTimeout(() => {
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
        }, delayMs);
        res.on('close', () => clearTimeout(timer));
      });
    });
  }

  /**
   * On 127.0.0.1, the host of the suite's receivers, or on `::1`: a host of its own, for a test that
   * watches deliveries to one host being paced (the test certificate names both).
   */
  static async start(address: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<WebhookReceiver> {
    const server = createServer({ cert: readFileSync(stack.tls.certFile), key: readFileSync(stack.tls.keyFile) });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    server.unref();
    return new WebhookReceiver(server);
  }

  get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `https://${address.includes(':') ? `[${address}]` : address}:${port}/hooks/loan-review`;
  }

  /** The next requests are answered with these, in order; after them, with `then`. */
  script(answers: Answer[], then: Answer = 200): this {
    this.answers = [...answers];
    this.fallback = then;
    return this;
  }

  /** The payloads received so far, parsed. */
  payloads(): {
    id: string;
    event: string;
    review_id: string;
    release_id: string | null;
    reference_id: string | null;
    status: string;
    occurred_at: string;
  }[] {
    return this.received.map((r) => JSON.parse(r.body));
  }

  /** Waits until `n` deliveries arrived (or fails after `timeoutMs`). */
  async waitFor(n: number, timeoutMs = 60_000): Promise<ReceivedDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${this.received.length}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
