// The SSRF corpus: a source URL or webhook URL that leads to this machine, written in any of the forms
// an attacker tries (other number bases, short and mapped IPv4, IPv6 spellings, fullwidth digits,
// percent-encoding, userinfo and backslash tricks, names from the hosts file, redirects), is refused
// before any connection. A listener on every loopback address of the trap's port, serving a real PDF,
// counts connections: one would be a hole.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { call, errorCode, errorMessage } from '../support/http.js';
import { pdf } from '../support/fixtures.js';
import { SourceServer } from '../support/source-server.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization, stack } from '../support/stack.js';

const services = new TestServices();
let trap: Trap;
let sources: SourceServer;
test.before(async () => {
  trap = await Trap.start(await pdf('Closing Disclosure'));
  sources = await SourceServer.start();
});
test.after.always(async () => {
  await services.stopAll();
  await trap?.close();
  await sources?.close();
  await closeShared();
});

/**
 * A trusted HTTPS server on the IPv6 and IPv4 wildcard (so 127/8, ::1 and 0.0.0.0 all reach it) that counts
 * connections.
 */
class Trap {
  connections = 0;
  private constructor(private readonly server: Server) {
    server.on('connection', () => this.connections++);
  }

  static async start(body: Buffer): Promise<Trap> {
    const server = createServer(
      { cert: readFileSync(stack.tls.certFile), key: readFileSync(stack.tls.keyFile) },
      (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length }).end(body),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: 0, host: '::', ipv6Only: false }, resolve);
    }).catch(() => new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve)));
    server.unref();
    return new Trap(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Every way of writing "this machine, port p" we know of; each is a URL a client may send. */
function loopbackForms(p: number): string[] {
  return [
    `https://127.0.0.1:${p}/cd.pdf`,
    `https://127.0.0.2:${p}/cd.pdf`,
    `https://127.255.255.254:${p}/cd.pdf`,
    `https://127.1:${p}/cd.pdf`,
    `https://127.0.1:${p}/cd.pdf`,
    `https://2130706433:${p}/cd.pdf`,
    `https://0x7f000001:${p}/cd.pdf`,
    `https://0X7F000001:${p}/cd.pdf`,
    `https://0x7f.0.0.1:${p}/cd.pdf`,
    `https://0x7f.1:${p}/cd.pdf`,
    `https://0177.0.0.1:${p}/cd.pdf`,
    `https://017700000001:${p}/cd.pdf`,
    `https://127.000.000.001:${p}/cd.pdf`,
    `https://127.0.0.1.:${p}/cd.pdf`,
    `https://0.0.0.0:${p}/cd.pdf`,
    `https://0:${p}/cd.pdf`,
    `https://[::1]:${p}/cd.pdf`,
    `https://[0:0:0:0:0:0:0:1]:${p}/cd.pdf`,
    `https://[0000:0000:0000:0000:0000:0000:0000:0001]:${p}/cd.pdf`,
    `https://[::]:${p}/cd.pdf`,
    `https://[::ffff:127.0.0.1]:${p}/cd.pdf`,
    `https://[::ffff:7f00:1]:${p}/cd.pdf`,
    `https://[0:0:0:0:0:ffff:127.0.0.1]:${p}/cd.pdf`,
    `https://[::ffff:0:127.0.0.1]:${p}/cd.pdf`,
    `https://[::127.0.0.1]:${p}/cd.pdf`,
    `https://[64:ff9b::127.0.0.1]:${p}/cd.pdf`,
    `https://[2002:7f00:1::1]:${p}/cd.pdf`,
    `https://[fe80::1]:${p}/cd.pdf`,
    `https://[fe80::1%25lo]:${p}/cd.pdf`,
    `https://１２７.０.０.１:${p}/cd.pdf`,
    `https://127。0。0。1:${p}/cd.pdf`,
    `https://%31%32%37.0.0.1:${p}/cd.pdf`,
    `https://127.0.0.1%2e:${p}/cd.pdf`,
    `https://localhost:${p}/cd.pdf`,
    `https://LOCALHOST:${p}/cd.pdf`,
    `https://localhost.:${p}/cd.pdf`,
    `https://sub.localhost:${p}/cd.pdf`,
    `https://localhost.localdomain:${p}/cd.pdf`,
    `https://ip6-localhost:${p}/cd.pdf`,
    `https://ip6-loopback:${p}/cd.pdf`,
    `https://${hostname()}:${p}/cd.pdf`,
    `https://127.0.0.1.nip.io:${p}/cd.pdf`,
    `https://files.example.com@127.0.0.1:${p}/cd.pdf`,
    `https://user:secret@127.0.0.1:${p}/cd.pdf`,
    `https://127.0.0.1:${p}\\@files.example.com/cd.pdf`,
    `https://127.0.0.1:${p}#@files.example.com/cd.pdf`,
    `http://127.0.0.1:${p}/cd.pdf`,
    `http://files.example.com@127.0.0.1:${p}/cd.pdf`,
    `ftp://127.0.0.1:${p}/cd.pdf`,
    `//127.0.0.1:${p}/cd.pdf`,
  ];
}

test.serial(
  'a loopback target in any of its forms is refused as a source or a webhook, and the trap sees no connection',
  async (t) => {
    // Services of their own, without the test suite's loopback switch: the guard as it runs in production.
    const strict = {
      TEMPORAL_TASK_QUEUE: `ssrf-${process.pid}`,
      TEST_ONLY_ALLOW_LOOPBACK_TARGETS: 'false',
      RATE_LIMIT_PER_MINUTE: '1000',
    };
    await services.worker(strict);
    const api = await services.api(strict);
    const org = await newOrganization();
    const forms = loopbackForms(trap.port);
    t.true(forms.length >= 40, `${forms.length} forms`);

    for (const url of forms) {
      const created = await call(api.url, 'POST', '/reviews', {
        key: org.liveKey,
        json: { documents: [{ filename: 'cd.pdf', content_type: 'application/pdf', url }] },
      });
      t.is(created.status, 422, `${url} as a source: ${created.text}`);
      t.is(errorCode(created), 'invalid_request', url);
      t.regex(errorMessage(created), /documents(\[0\]|\.0)\.url/, url);

      const endpoint = await call(api.url, 'POST', '/webhook-endpoints', { key: org.liveKey, json: { url } });
      t.is(endpoint.status, 400, `${url} as a webhook: ${endpoint.text}`);
      t.is(errorCode(endpoint), 'invalid_request', url);
    }
    t.is(trap.connections, 0, 'no form reached the trap');
    // The trap does answer: it is reachable, so a zero above means refused, not unreachable.
    await new Promise<void>((resolve, reject) =>
      connect(trap.port, '127.0.0.1', function (this: Socket) {
        this.end();
        resolve();
      }).once('error', reject),
    );
    await new Promise((r) => setTimeout(r, 100));
    t.is(trap.connections, 1);
    trap.connections = 0;
  },
);

test.serial('a source host that redirects to this machine is not followed, whatever the redirect status', async (t) => {
  // The suite's own services let loopback through (its file host lives here); the redirect must still stop.
  const org = await newOrganization();
  for (const status of [301, 302, 303, 307, 308]) {
    const target = `https://127.0.0.1:${trap.port}/cd.pdf`;
    const url = sources.handle(`/moved-${status}.pdf`, (_req, res) =>
      res.writeHead(status, { location: target }).end(),
    );
    const created = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      json: { documents: [{ filename: 'cd.pdf', content_type: 'application/pdf', url }] },
    });
    t.is(created.status, 422, `${status}: ${created.text}`);
    t.is(errorCode(created), 'invalid_request');
    t.regex(errorMessage(created), new RegExp(`documents\\[0\\]\\.url: answered with a redirect \\(HTTP ${status}\\)`));
  }
  t.is(trap.connections, 0, 'no redirect was followed to the trap');
});
