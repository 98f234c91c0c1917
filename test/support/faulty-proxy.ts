// A pass-through HTTP proxy in front of the real MinIO that refuses the requests a test chooses (503, as
// an overloaded or failing store answers), to show what the service does when storing fails. Everything
// else reaches MinIO unchanged (the Host header too, so S3 signatures still verify).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class FaultyProxy {
  refuse: (req: IncomingMessage) => boolean = () => false;
  refused = 0;

  private constructor(
    private readonly server: Server,
    target: URL,
  ) {
    server.on('request', (req, res) => {
      if (this.refuse(req)) {
        this.refused += 1;
        req.resume();
        res
          .writeHead(503, { 'content-type': 'application/xml' })
          .end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>refused by ' +
              'the test proxy</Message></Error>',
          );
        return;
      }
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  }

  static async start(target: URL): Promise<FaultyProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    return new FaultyProxy(server, target);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
