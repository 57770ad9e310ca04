import { isIP } from 'node:net';

/**
 * IP addresses and ranges as numbers, for judging what a setting means rather than how it is
 * written: the per-client key of the rate limits (an IPv6 client by its /64, issue 33 item 7) and
 * whether ROS_TRUST_PROXY trusts public address space (issue 33 item 4).
 *
 * Every address is placed in IPv6's 128-bit space, an IPv4 address as its mapped form
 * ::ffff:a.b.c.d, which is how proxy-addr (Fastify's trustProxy) matches an IPv4 client against an
 * IPv6 range, so `::ffff:0:0/96` is every IPv4 address.
 */

const V4_MAPPED = 0xffff00000000n;
const ALL = (1n << 128n) - 1n;

/** An address as a 128-bit number (IPv4 mapped); undefined when it is not an IP address. */
export function ipToBigInt(ip: string): bigint | undefined {
  const family = isIP(ip);
  if (family === 4) return V4_MAPPED | v4(ip);
  if (family !== 6) return undefined;
  let text = ip.toLowerCase().replace(/%.*$/, '');
  // An IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const n = v4(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

function v4(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6Text(n: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** Whether a 128-bit address is an IPv4 address (in its mapped form). */
const isV4 = (n: bigint) => n >> 32n === 0xffffn;

/**
 * The key a client's requests are counted under: an IPv4 address as it is, an IPv6 address by
 * its network of `v6PrefixBits` (default 64: one subscriber usually gets a whole /64, so keying by
 * address let one home send from 2^64 addresses). An IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientKey(ip: string, v6PrefixBits = 64): string {
  if (isIP(ip) === 4) return ip;
  const n = ipToBigInt(ip);
  if (n === undefined) return ip;
  if (isV4(n)) return [24, 16, 8, 0].map((s) => Number((n >> BigInt(s)) & 0xffn)).join('.');
  const mask = v6PrefixBits >= 128 ? ALL : ALL ^ ((1n << BigInt(128 - v6PrefixBits)) - 1n);
  return `${v6Text(n & mask)}/${v6PrefixBits}`;
}

/** A range of the 128-bit space, both ends included. */
export interface Range {
  first: bigint;
  last: bigint;
}

/** An address or CIDR range (IPv4 or IPv6) as a range of the 128-bit space; undefined if it is neither. */
export function parseRange(entry: string): Range | undefined {
  const [addr = '', bits, ...rest] = entry.split('/');
  const n = ipToBigInt(addr);
  if (n === undefined || rest.length > 0) return undefined;
  const width = isIP(addr) === 4 ? 32 : 128;
  const prefix = bits === undefined ? width : /^\d+$/.test(bits) ? Number(bits) : Number.NaN;
  if (!(prefix >= 0 && prefix <= width)) return undefined;
  const hostBits = BigInt(width - prefix);
  const size = 1n << hostBits;
  const first = n & ~(size - 1n) & ALL;
  return { first, last: first + size - 1n };
}

/** proxy-addr's names for ranges (none of them public). */
export const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Address space that is not the public internet's (IANA special-purpose registries). */
const NOT_PUBLIC_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
function subtract(ranges: Range[], holes: Range[]): Range[] {
  let out = ranges;
  for (const h of holes) {
    out = out.flatMap((r) => {
      if (h.last < r.first || h.first > r.last) return [r];
      const parts: Range[] = [];
      if (h.first > r.first) parts.push({ first: r.first, last: h.first - 1n });
      if (h.last < r.last) parts.push({ first: h.last + 1n, last: r.last });
      return parts;
    });
  }
  return out;
}

function intersect(a: Range[], b: Range[]): Range[] {
  const out: Range[] = [];
  for (const x of a)
    for (const y of b) {
      // (bigint: no Math.max/min)
      let first = x.first;
      if (y.first > first) first = y.first;
      let last = x.last;
      if (y.last < last) last = y.last;
      if (first <= last) out.push({ first, last });
    }
  return out;
}

/** Sorted, overlapping ranges merged. */
function union(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.first <= last.last + 1n) {
      if (r.last > last.last) last.last = r.last;
    } else out.push({ ...r });
  }
  return out;
}

/** IPv6's public space: global unicast 2000::/3 less documentation. */
const NOT_PUBLIC_V6 = ['2001:db8::/32', '3fff::/20'];

const ranges = (list: string[]) => list.map((e) => parseRange(e) as Range);
const PUBLIC_V4_SPACE = subtract(ranges(['0.0.0.0/0']), ranges(NOT_PUBLIC_V4));
const NAT64 = (parseRange('64:ff9b::/96') as Range).first;
const PUBLIC_V6_SPACE = subtract(ranges(['2000::/3']), ranges(NOT_PUBLIC_V6));
/** NAT64 addresses are IPv4's public addresses seen from IPv6: counted as IPv4. */
const NAT64_PUBLIC_SPACE = PUBLIC_V4_SPACE.map((r) => ({
  first: NAT64 | (r.first & 0xffffffffn),
  last: NAT64 | (r.last & 0xffffffffn),
}));

/** How many public addresses a set of addresses, ranges and proxy-addr names covers, however written. */
export function publicAddressesCovered(entries: string[]): { v4: bigint; v6: bigint } {
  const all = union(
    entries.flatMap((e) => (NAMED_RANGES[e] ?? [e]).map(parseRange).filter((r): r is Range => !!r)),
  );
  const size = (rs: Range[]) => rs.reduce((sum, r) => sum + (r.last - r.first + 1n), 0n);
  return {
    v4: size(intersect(all, PUBLIC_V4_SPACE)) + size(intersect(all, NAT64_PUBLIC_SPACE)),
    v6: size(intersect(all, PUBLIC_V6_SPACE)),
  };
}

/**
 * The most public address space a trusted-proxy set may cover: a proxy pool's own addresses
 * (a /24 of IPv4, a /64 of IPv6, one network, in all). More trusts strangers: a hosting
 * provider's /16 or /32 holds other tenants, and any client there may write the address it is
 * counted under.
 */
export const MAX_TRUSTED_PUBLIC = { v4: 1n << 8n, v6: 1n << 64n };
