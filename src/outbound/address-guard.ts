// The SSRF guard shared by webhook registration, webhook delivery and source-URL fetching: a target must
// be HTTPS and every address its host resolves to must be public. Loopback, private, link-local (cloud
// metadata), CGNAT, unique-local, IPv4-mapped/-compatible/-translated and NAT64 IPv6, unspecified, multicast,
// documentation and reserved ranges are refused, and so are names that only exist inside a network.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

// One list per family: Node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules, so a
// single list holding ::ffff:0:0/96 would refuse every IPv4 address.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
const v4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
for (const [net, prefix] of v4) blockedV4.addSubnet(net, prefix, 'ipv4');
const v6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): embeds an IPv4 address too
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address we cannot vet
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];
for (const [net, prefix] of v6) blockedV6.addSubnet(net, prefix, 'ipv6');

// Separate families here too, so that the test-only switch admits 127/8 and ::1 but never ::ffff:127.x.
const LOOPBACK_V4 = new BlockList();
LOOPBACK_V4.addSubnet('127.0.0.0', 8, 'ipv4');
const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress('::1', 'ipv6');

/** Names that resolve inside a network, whatever public DNS says. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain|home\.arpa)$/i;
const BLOCKED_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'kubernetes.default']);

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !blockedV4.check(address, 'ipv4') : !blockedV6.check(address, 'ipv6');
}

export interface GuardOptions {
  /** Test-only: lets loopback targets through (never on in a deployment). */
  allowLoopback: boolean;
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export class UnsafeTargetError extends Error {
  override name = 'UnsafeTargetError';
}

export interface CheckedTarget {
  url: URL;
  /** Addresses checked; a connection must go to one of these and nowhere else. */
  addresses: { address: string; family: number }[];
}

const defaultLookup = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

function allowed(address: string, opts: GuardOptions): boolean {
  if (isPublicAddress(address)) return true;
  if (!opts.allowLoopback) return false;
  const family = isIP(address);
  if (family === 4) return LOOPBACK_V4.check(address, 'ipv4');
  return family === 6 && LOOPBACK_V6.check(address, 'ipv6');
}

/** Parses and vets a target URL; UnsafeTargetError says why it is refused. */
export async function checkTarget(raw: string, opts: GuardOptions): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('not a valid URL');
  }
  if (url.protocol !== 'https:') throw new UnsafeTargetError('must be an https:// URL');
  if (url.username || url.password) throw new UnsafeTargetError('must not carry credentials');
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (host === '') throw new UnsafeTargetError('has no host');
  if (isIP(host)) {
    if (!allowed(host, opts)) throw new UnsafeTargetError('points at a non-public address');
    return { url, addresses: [{ address: host, family: isIP(host) }] };
  }
  if (BLOCKED_NAMES.has(host) || INTERNAL_NAME.test(host) || !host.includes('.')) {
    throw new UnsafeTargetError('names an internal host');
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (opts.lookup ?? defaultLookup)(host);
  } catch {
    throw new UnsafeTargetError('does not resolve');
  }
  if (addresses.length === 0) throw new UnsafeTargetError('does not resolve');
  if (!addresses.every((a) => allowed(a.address, opts)))
    throw new UnsafeTargetError('resolves to a non-public address');
  return { url, addresses };
}
