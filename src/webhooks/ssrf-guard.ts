import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { RuleName } from '../errors.js';

/**
 * SSRF guard: a webhook may only target http(s) URLs on public addresses. It is
 * checked when a webhook is saved and again on every send, because DNS may change in between.
 */

// Everything that is not a public unicast address. BlockList also matches IPv4-mapped IPv6
// addresses (::ffff:10.0.0.1) against the IPv4 rules.
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (NON_PUBLIC.check(address, 'ipv6')) return false;
  const embedded = embeddedIpv4(address);
  return embedded === undefined || !NON_PUBLIC.check(embedded, 'ipv4');
}

/** The 8 hextets of an IPv6 address (valid per isIP), '::' expanded, a dotted IPv4 tail read. */
function hextets(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((part) => Number.parseInt(part, 16));
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one reaches through a translation or tunnel, if any: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), 6to4 (2002:AABB:CCDD::/16, the IPv4 in
 * bits 16-47) and Teredo (2001:0::/32, the client's IPv4 inverted in the last 32 bits). NAT64
 * and IPv4-compatible ranges are refused whole by NON_PUBLIC. A private IPv4 behind any of these
 * makes the IPv6 address non-public: `http://[2002:7f00:1::]/` is 127.0.0.1.
 */
function embeddedIpv4(address: string): string | undefined {
  const h = hextets(address);
  if (h.length !== 8 || h.some(Number.isNaN)) return '0.0.0.0'; // unreadable: treat as non-public
  const zeroUntil = (n: number) => h.slice(0, n).every((part) => part === 0);
  if (zeroUntil(5) && h[5] === 0xffff) return v4(h[6]!, h[7]!);
  if (zeroUntil(4) && h[4] === 0xffff && h[5] === 0) return v4(h[6]!, h[7]!);
  if (h[0] === 0x2002) return v4(h[1]!, h[2]!);
  if (h[0] === 0x2001 && h[1] === 0) return v4(h[6]! ^ 0xffff, h[7]! ^ 0xffff);
  return undefined;
}

/** Why a url is refused: the API's English message, and the rule a surface words itself. */
export interface UrlProblem {
  message: string;
  rule: RuleName;
}

const problem = (rule: RuleName, message: string): UrlProblem => ({ rule, message });
export const URL_SCHEME_PROBLEM = problem('url_scheme', 'The url must be an http or https URL.');
export const PRIVATE_TARGET_PROBLEM = problem(
  'url_private',
  'The url must not point to a private, loopback or link-local address.',
);
export const UNRESOLVABLE_PROBLEM = problem('url_unresolvable', 'The url host could not be resolved.');
const INVALID_URL_PROBLEM = problem('url_invalid', 'The url must be a valid URL.');

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Parses and checks the scheme; returns the URL or why the `url` field is refused. */
export function parseWebhookUrl(value: string): URL | UrlProblem {
  // The URL parser would silently strip tabs and newlines (and percent-encode other controls):
  // a URL sent with them is not the URL that would be stored, so it is refused as sent.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(value))
    return problem('url_control_characters', 'The url must not contain control characters.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return INVALID_URL_PROBLEM;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return URL_SCHEME_PROBLEM;
  if (hostOf(url) === '') return INVALID_URL_PROBLEM;
  if (url.port === '0') return problem('url_port', 'The url port must be between 1 and 65535.');
  return url;
}

async function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  return addresses.map((entry) => entry.address);
}

/**
 * Save-time check: null when the URL may be used, else why the `url` field is refused.
 * Every address the host resolves to must be public (one private answer is enough to refuse).
 */
export async function checkWebhookUrl(value: string, allowPrivate: boolean): Promise<UrlProblem | null> {
  const url = parseWebhookUrl(value);
  if (!(url instanceof URL)) return url;
  if (allowPrivate) return null;
  let addresses: string[];
  try {
    addresses = await resolveAll(hostOf(url));
  } catch {
    return UNRESOLVABLE_PROBLEM;
  }
  if (addresses.length === 0) return UNRESOLVABLE_PROBLEM;
  return addresses.every(isPublicAddress) ? null : PRIVATE_TARGET_PROBLEM;
}

/** dns.lookup's shape with `all: true`; tests pass one that answers differently each time (rebinding). */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export class TargetRefusedError extends Error {
  readonly code = 'EWEBHOOKTARGET';
  constructor(message = 'Refused: the url resolves to a non-public address.') {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/**
 * Send-time check, done inside the connection's own DNS lookup so the address that is checked is
 * the address that is dialled (no window for DNS rebinding). Node skips `lookup` for IP literals;
 * the sender checks those itself with isPublicAddress.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0) return callback(new Error(`No address for ${hostname}`), '', 0);
      if (!allowPrivate && !list.every((entry) => isPublicAddress(entry.address))) {
        return callback(new TargetRefusedError(), '', 0);
      }
      if (options.all) return callback(null, list);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
