// Port bookkeeping for the local stack.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where free ports are looked for: outside the kernel's ephemeral range. A port the kernel hands out for
 * `listen(0)` comes from that range, and so does the local port of every outgoing connection: between
 * choosing such a port and a service binding it, a connection (the worker's to Temporal, a test's to the
 * API) may take it, and the service then fails with EADDRINUSE. Outside the range only a listener takes a
 * port. Linux says its range in /proc; elsewhere the IANA range (49152–65535) is assumed. Below the range
 * (from 10,000) where it leaves room, else above it, else anywhere.
 */
export function portSearchRange(): [number, number] {
  let ephemeral: [number, number] = [49_152, 65_535];
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) ephemeral = [low, high];
  } catch {
    // Not Linux: the IANA range.
  }
  const ROOM = 1_000;
  if (ephemeral[0] - 1 - 10_000 >= ROOM) return [10_000, ephemeral[0] - 1];
  if (65_535 - (ephemeral[1] + 1) >= ROOM) return [ephemeral[1] + 1, 65_535];
  return [10_000, 65_535];
}

/**
 * The registered ports the Fetch standard's "bad port" list blocks: Node's fetch refuses them ("fetch
 * failed", cause "bad port") before connecting, so an API on one never answers a test's or a benchmark's
 * probe. The search range starts at 10,000, which leaves 10080 of them; the others stand here should it
 * move.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Ports this process has handed out: two callers before either binds never get the same one. */
const handedOut = new Set<number>();

/**
 * A port free right now on the loopback interface, in portSearchRange(), not handed out before, and one
 * fetch connects to.
 */
export async function freePort(): Promise<number> {
  const [low, high] = portSearchRange();
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (FETCH_BLOCKED_PORTS.has(port) || handedOut.has(port) || !(await isPortFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
