// Where a webhook may be sent (docs/decisions/0075-webhooks.md, "SSRF"). A URL's host is resolved, and every address it
// resolves to must be public: loopback, private, link-local, CGNAT, unique-local, multicast, reserved and documentation
// ranges are refused (IPv4, IPv6, and IPv4 inside IPv6: mapped, compatible, NAT64, 6to4), unless the operator's
// allow-list (WEBHOOK_ALLOWED_HOSTS: exact host names, addresses or CIDRs) names the host or covers the address. The
// delivery connects to the address checked here, never to a second resolution of the name (DNS rebinding).
import dns from 'node:dns/promises';
import net from 'node:net';

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const V6_BLOCKED: Array<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new net.BlockList();
for (const [a, p] of V4_BLOCKED) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of V6_BLOCKED) blocked.addSubnet(a, p, 'ipv6');

/** The IPv4 address carried inside an IPv6 one (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), or null. */
export function embeddedV4(v6: string): string | null {
  const words = expandV6(v6);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => words.slice(0, n).every((w) => w === 0);
  if (zeros(5) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (zeros(6) && (words[6] !== 0 || words[7]! > 1)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

function expandV6(v6: string): number[] | null {
  let s = v6.toLowerCase().replace(/%.*$/, '');
  // A dotted tail (::ffff:127.0.0.1) becomes two words.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const p = dotted[1]!.split('.').map(Number);
    s = s.slice(0, -dotted[1]!.length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (x: string) => (x === '' ? [] : x.split(':').map((w) => parseInt(w, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const words = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Whether an address is not on the public internet (see the ranges above). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedV4(address);
    if (inner && blocked.check(inner, 'ipv4')) return true;
    return blocked.check(address, 'ipv6');
  }
  return true;
}

type AllowList = { hosts: Set<string>; nets: net.BlockList };

const allowCache = new Map<string, AllowList>();

function allowListOf(entries: readonly string[]): AllowList {
  const key = entries.join(',');
  const hit = allowCache.get(key);
  if (hit) return hit;
  const hosts = new Set<string>();
  const nets = new net.BlockList();
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    const [addr, prefix] = entry.split('/') as [string, string | undefined];
    const family = net.isIP(addr);
    if (family === 0) {
      hosts.add(entry);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) nets.addAddress(addr, type);
    else nets.addSubnet(addr, Number(prefix), type);
  }
  const out = { hosts, nets };
  allowCache.set(key, out);
  return out;
}

export type CheckedAddress = { ok: true; address: string; family: 4 | 6; allowListed: boolean } | { ok: false; reason: string };

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Resolves a webhook URL's host and checks it. Allowed: every address public, or the host (or each address) on the
 * allow-list. http is allowed only for an allow-listed host (a local receiver); elsewhere https.
 */
export async function checkWebhookUrl(url: string, allowed: readonly string[], resolve: Resolver = systemResolver): Promise<CheckedAddress> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, reason: 'Enter an absolute http(s) URL' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, reason: 'Use an https URL' };
  if (u.username || u.password) return { ok: false, reason: 'Credentials in the URL are not accepted; sign with the secret instead' };
  const host = u.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const list = allowListOf(allowed);
  let addrs: Array<{ address: string; family: number }>;
  if (net.isIP(host)) addrs = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addrs = await resolve(host);
    } catch {
      return { ok: false, reason: `The host ${host} could not be resolved` };
    }
  }
  if (addrs.length === 0) return { ok: false, reason: `The host ${host} could not be resolved` };
  const hostListed = list.hosts.has(host);
  const listed = (a: { address: string; family: number }) => hostListed || list.nets.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4');
  // Every address must pass: a name that resolves to one public and one private address is refused.
  for (const a of addrs) {
    if (isPrivateAddress(a.address) && !listed(a)) {
      return { ok: false, reason: `The URL resolves to a loopback, private or link-local address (${a.address}), which webhooks cannot reach` };
    }
  }
  const allowListed = addrs.every(listed);
  if (u.protocol === 'http:' && !allowListed) return { ok: false, reason: 'Use an https URL' };
  const first = addrs[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4, allowListed };
}
