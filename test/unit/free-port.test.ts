// The stack's ports (npm start, npm test): free, distinct, and outside the range the kernel takes the
// local ports of outgoing connections from, where a connection could take one before its service binds it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { freePort } from '../../scripts/stack/ports.js';

test('the ports handed out are distinct, bindable, and below the ephemeral range', async (t) => {
  const ports: number[] = [];
  for (let i = 0; i < 50; i++) ports.push(await freePort());
  t.is(new Set(ports).size, ports.length, 'no port twice');
  let ephemeralLow = 49_152;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    // Not Linux.
  }
  t.true(ports.every((p) => p >= 1024 && p < ephemeralLow), `${ports.join(', ')} below ${ephemeralLow}`);
  // Each is free: a listener binds every one of them.
  const servers = await Promise.all(
    ports.map((port) => new Promise<Server>((resolve, reject) => { const s = createServer(); s.once('error', reject).listen(port, '127.0.0.1', () => resolve(s)); })),
  );
  t.is(servers.length, ports.length);
  for (const s of servers) s.close();
});
