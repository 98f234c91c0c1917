// An HTTPS server on this machine standing in for an integrator's file host (signed source URLs). Its
// certificate is signed by the suite's test CA, which the services trust through NODE_EXTRA_CA_CERTS;
// `untrusted` serves with a certificate nobody trusts. Each test file gets its own server.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stack } from './stack.js';
import { pdf, zip } from './fixtures.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export class SourceServer {
  private readonly routes = new Map<string, Handler>();
  private readonly counts = new Map<string, number>();

  private constructor(private readonly server: Server) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
      const handler = this.routes.get(path);
      if (handler) handler(req, res);
      else res.writeHead(404).end('not found');
    });
  }

  static async start(o: { trusted: boolean } = { trusted: true }): Promise<SourceServer> {
    const server = createServer({
      cert: readFileSync(o.trusted ? stack.tls.certFile : stack.tls.untrustedCertFile),
      key: readFileSync(o.trusted ? stack.tls.keyFile : stack.tls.untrustedKeyFile),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Never keeps a test process alive on its own.
    server.unref();
    return new SourceServer(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The signed-looking URL of a path on this server. */
  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}?X-Signature=test&X-Expires=300`;
  }

  /** Serves `data` at `path` and returns its URL. */
  file(path: string, data: Buffer, type = 'application/octet-stream'): string {
    return this.handle(path, (_req, res) =>
      res.writeHead(200, { 'content-type': type, 'content-length': data.length }).end(data),
    );
  }

  handle(path: string, handler: Handler): string {
    this.routes.set(path, handler);
    return this.url(path);
  }

  /** How many requests reached `path`. */
  hits(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let shared: Promise<{ server: SourceServer; packageUrl: string }> | undefined;

/** This process's file host with one package (a zip holding a PDF) that any create may point at. */
export function sharedSources(): Promise<{ server: SourceServer; packageUrl: string }> {
  shared ??= (async () => {
    const server = await SourceServer.start();
    const packageUrl = server.file(
      '/package.zip',
      await zip([{ name: 'closing-disclosure.pdf', data: await pdf('Closing Disclosure') }]),
    );
    return { server, packageUrl };
  })();
  return shared;
}
