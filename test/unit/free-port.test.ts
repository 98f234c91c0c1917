// The stack's ports (npm start, npm test): free, distinct, and outside the range the kernel takes the
// local ports of outgoing connections from, where a connection could take one before its service binds it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { FETCH_BLOCKED_PORTS, freePort, portSearchRange } from '../../scripts/stack/ports.js';

test('the ports handed out are distinct, bindable, and outside the ephemeral range', async (t) => {
  const ports: number[] = [];
  for (let i = 0; i < 50; i++) ports.push(await freePort());
  t.is(new Set(ports).size, ports.length, 'no port twice');
  let ephemeral = [49_152, 65_535];
  try {
    ephemeral = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    // Not Linux.
  }
  const [low, high] = portSearchRange();
  t.true(
    ports.every((p) => p >= low && p <= high),
    `${ports.join(', ')} within ${low}–${high}`,
  );
  // Outside the ephemeral range wherever the machine leaves room for it (a range of nearly every port leaves none).
  if (ephemeral[0]! > 11_000 || ephemeral[1]! < 64_535)
    t.true(high < ephemeral[0]! || low > ephemeral[1]!, `${low}–${high} against ${ephemeral.join('–')}`);
  // Each is free: a listener binds every one of them.
  const servers = await Promise.all(
    ports.map(
      (port) =>
        new Promise<Server>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject).listen(port, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  t.is(servers.length, ports.length);
  for (const s of servers) s.close();
});

test("the ports skipped besides busy ones are those fetch refuses to connect to ('bad port')", async (t) => {
  for (const port of FETCH_BLOCKED_PORTS) {
    const refused = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (err: Error) => err,
    );
    t.regex(String((refused?.cause as Error | undefined)?.message), /bad port/, `port ${port}`);
  }
});
