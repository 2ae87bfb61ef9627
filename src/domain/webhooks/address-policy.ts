/**
 * Which webhook targets the service may call (SSRF guard), as pure functions: the URL's form, and
 * whether an IP address is a public unicast address. Resolving names and pinning the connection to
 * the checked address is the HTTP client's job (src/infra/webhook-http.ts); it calls these.
 *
 * Numeric host forms (`http://2130706433`, `http://0x7f.1`, `http://017700000001`) need no code of
 * their own: the WHATWG URL parser turns them into dotted IPv4 (`127.0.0.1`) before we look.
 */

/** `insecure`: a refusal that WEBHOOK_ALLOW_INSECURE_TARGETS lifts (http://, localhost, a loopback or private address). */
export type TargetRefusal = { ok: false; reason: string; insecure?: true };

export interface ParsedTarget {
  ok: true;
  url: URL;
  /** The host without IPv6 brackets or a trailing dot. */
  host: string;
  /** The host itself when it is an IP literal (no lookup needed). */
  ip: { address: string; family: 4 | 6 } | null;
}

export interface TargetRules {
  /** WEBHOOK_ALLOW_INSECURE_TARGETS: http:// and loopback/private addresses are allowed (development, tests). */
  allowInsecure: boolean;
}

export const MAX_URL_LENGTH = 2048;

/** The URL's own form: scheme, no credentials, and a host that is not a local name or a refused address. */
export function parseTarget(raw: string, rules: TargetRules): ParsedTarget | TargetRefusal {
  if (raw.length > MAX_URL_LENGTH) return refuse(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(rules.allowInsecure && url.protocol === 'http:')) {
    if (rules.allowInsecure) return refuse('must use http or https');
    return url.protocol === 'http:' ? { ...refuse('must use https'), insecure: true } : refuse('must use https');
  }
  if (url.username !== '' || url.password !== '') return refuse('must not contain credentials (user:password@)');
  if (url.hash !== '') return refuse('must not contain a fragment (#…)');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '') return refuse('has no host');
  const ip = ipLiteral(host);
  if (!rules.allowInsecure) {
    if (host === 'localhost' || host.endsWith('.localhost')) return { ...refuse('must not point at localhost'), insecure: true };
    if (ip) {
      const why = refusedAddress(ip.address);
      if (why) return { ...refuse(`must not point at a ${why} address (${ip.address})`), insecure: true };
    }
  }
  return { ok: true, url, host, ip };
}

/** Why this resolved address may not be called (loopback, private, …), or null for a public unicast address. */
export function refusedAddress(address: string): string | null {
  if (IPV4.test(address)) return refusedV4(v4ToNumber(address));
  const bytes = parseIPv6(address);
  if (!bytes) return 'malformed';
  return refusedV6(bytes);
}

function refuse(reason: string): TargetRefusal {
  return { ok: false, reason };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function ipLiteral(host: string): ParsedTarget['ip'] {
  if (IPV4.test(host)) return { address: host, family: 4 };
  if (host.includes(':') && parseIPv6(host)) return { address: host, family: 6 };
  return null;
}

function v4ToNumber(a: string): number {
  return a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** [first address, prefix length, what it is]: every range that is not public unicast. */
const V4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'reserved (documentation)'],
  ['192.88.99.0', 24, 'reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved (benchmarking)'],
  ['198.51.100.0', 24, 'reserved (documentation)'],
  ['203.0.113.0', 24, 'reserved (documentation)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V4_TABLE = V4_RANGES.map(([base, bits, what]) => ({ base: v4ToNumber(base), size: 2 ** (32 - bits), what }));

function refusedV4(n: number): string | null {
  for (const r of V4_TABLE) if (n >= r.base && n < r.base + r.size) return r.what;
  return null;
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or null when malformed. */
export function parseIPv6(text: string): number[] | null {
  let s = text.toLowerCase();
  if (s.includes('%')) return null;
  // A dotted IPv4 tail (::ffff:127.0.0.1) is two 16-bit groups.
  const lastColon = s.lastIndexOf(':');
  const v4 = s.slice(lastColon + 1);
  if (v4.includes('.')) {
    if (!IPV4.test(v4)) return null;
    const n = v4ToNumber(v4);
    s = `${s.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const words = [...head, ...Array<string>(8 - given).fill('0'), ...rest].map((g) => parseInt(g, 16));
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function startsWith(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

const embeddedV4 = (bytes: number[], at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

function refusedV6(b: number[]): string | null {
  const zero = Array<number>(16).fill(0);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (startsWith(b, [...Array<number>(15).fill(0), 1], 128)) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address is what the connection reaches.
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) {
    const why = refusedV4(embeddedV4(b, 12));
    return why ? `IPv4-mapped ${why}` : null;
  }
  // NAT64 well-known prefix (64:ff9b::/96): the gateway reaches the embedded IPv4 address.
  if (startsWith(b, [0, 0x64, 0xff, 0x9b], 96)) {
    const why = refusedV4(embeddedV4(b, 12));
    return why ? `NAT64 ${why}` : null;
  }
  // 6to4 (2002::/16) carries an IPv4 address in bits 16-47.
  if (startsWith(b, [0x20, 0x02], 16)) {
    const why = refusedV4(embeddedV4(b, 2));
    return why ? `6to4 ${why}` : null;
  }
  if (startsWith(b, zero, 96)) return 'reserved (IPv4-compatible)';
  if (startsWith(b, [0xfc], 7)) return 'private (unique local)';
  if (startsWith(b, [0xfe, 0x80], 10)) return 'link-local';
  if (startsWith(b, [0xfe, 0xc0], 10)) return 'reserved (site-local)';
  if (startsWith(b, [0xff], 8)) return 'multicast';
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return 'reserved (documentation)';
  // 2001::/23: IETF protocol assignments (Teredo, ORCHID, benchmarking …).
  if (startsWith(b, [0x20, 0x01, 0x00], 23)) return 'reserved (IETF protocol assignments)';
  // Only global unicast (2000::/3) is public.
  if (!startsWith(b, [0x20], 3)) return 'reserved';
  return null;
}
