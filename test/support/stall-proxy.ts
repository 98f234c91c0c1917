// A TCP proxy in front of a server that can stall it as a SIGSTOP would: connections stay open, bytes stop
// flowing both ways, new connections are accepted but get no answer; `resume` lets everything through again.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class StallProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly held: Socket[] = [];
  private stalled = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      client.on('error', () => {});
      if (this.stalled) {
        client.pause();
        this.held.push(client);
      } else this.connect(client);
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  stall(): void {
    this.stalled = true;
    for (const [a, b] of this.pairs) {
      a.pause();
      b.pause();
    }
  }

  resume(): void {
    this.stalled = false;
    for (const [a, b] of this.pairs) {
      a.resume();
      b.resume();
    }
    for (const client of this.held.splice(0)) this.connect(client);
  }

  /**
   * As a kill -9 of the server behind: every open connection is reset and new ones are refused (the
   * proxy stops listening). close() is still to be called.
   */
  kill(): void {
    for (const [a, b] of this.pairs) {
      a.resetAndDestroy();
      b.resetAndDestroy();
    }
    this.server.close();
  }

  /** As the server started again after a kill: the proxy listens on its port again. */
  async revive(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    for (const c of this.held) c.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connect(client: Socket): void {
    const upstream = createConnection(this.target);
    upstream.on('error', () => client.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.once('close', drop);
    upstream.once('close', drop);
  }
}
