import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { hostOf } from '../lib/url-host';

// WEBHOOK_BLOCK_PRIVATE (docs/webhooks.md#operator-settings): for operators hosting several merchants, a webhook URL
// must not reach the server's own network. The check runs on the address the socket actually
// connects to (see guardedLookup), so a hostname that resolves differently later cannot slip by.

type Kind = 'cloud metadata' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'shared (CGNAT)' | 'multicast' | 'reserved';

const RANGES: [Kind, string, number, 'ipv4' | 'ipv6'][] = [
  // Metadata first: it sits inside link-local and CGNAT, and naming it is clearer.
  ['cloud metadata', '169.254.169.254', 32, 'ipv4'],
  ['cloud metadata', '100.100.100.200', 32, 'ipv4'],
  ['cloud metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

// One BlockList per kind, so the refusal can say which rule matched. BlockList also matches
// IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 rules.
const LISTS = new Map<Kind, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(kind, list);
}

// The well-known NAT64 prefix (RFC 6052): an IPv6-only host reaches the IPv4 address held in the
// last 32 bits through its NAT64 gateway, which also translates to private IPv4 networks (AWS's
// NAT64 does), so such an address is judged by the IPv4 address it carries.
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

function nat64Embedded(address: string): string | null {
  if (!NAT64.check(address, 'ipv6')) return null;
  // The URL parser writes any IPv6 form (dotted tail, zeros spelled out) as compressed hex groups;
  // a zone id (%eth0), which a lookup may add, is not part of the address.
  const hex = new URL(`http://[${address.replace(/%.*$/, '')}]`).hostname.slice(1, -1);
  const [head = '', tail = ''] = hex.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = hex.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  const high = parseInt(groups[6]!, 16);
  const low = parseInt(groups[7]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Why an address may not be called with WEBHOOK_BLOCK_PRIVATE on, or null when it may. */
export function blockedKind(address: string): Kind | null {
  const embedded = address.includes(':') ? nat64Embedded(address) : null;
  if (embedded) return blockedKind(embedded);
  const family = address.includes(':') ? 'ipv6' : 'ipv4';
  for (const [kind, list] of LISTS) if (list.check(address, family)) return kind;
  return null;
}

/**
 * A send refused by WEBHOOK_BLOCK_PRIVATE. Its message is recorded on the attempt, which the API
 * shows the endpoint's owner: it names the host they registered, never the address a name
 * resolved to (that would map the operator's network for whoever controls the DNS name).
 */
export class BlockedAddressError extends Error {
  readonly code = 'ADDRESS_BLOCKED';
  constructor(host: string) {
    super(`refused ${host}: it points to a private, loopback or otherwise internal address, and WEBHOOK_BLOCK_PRIVATE is on`);
    this.name = 'BlockedAddressError';
  }
}

/** How long registration waits for DNS before leaving the judgement to send time. */
const REGISTRATION_LOOKUP_MS = 3000;

/**
 * Whether a webhook URL's host is, or now resolves to, a blocked address: the check at
 * registration, run before the write (never inside its transaction). A name that does not resolve
 * (yet) passes here; every send still vets the address it connects to (guardedLookup).
 */
export async function pointsToBlockedAddress(url: string): Promise<boolean> {
  const host = hostOf(new URL(url));
  if (isIP(host)) return blockedKind(host) !== null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), REGISTRATION_LOOKUP_MS)));
  const addresses = await Promise.race([dns.promises.lookup(host, { all: true }).catch(() => []), timeout]).finally(() => clearTimeout(timer));
  return addresses.some((entry) => blockedKind(entry.address) !== null);
}

/** A dns.lookup that refuses blocked addresses; given to the HTTP request, it vets the connected address. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address, family);
    // Node asks for every address (options.all) when it may try several; refuse if any is blocked.
    const entries = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
    for (const entry of entries) {
      if (blockedKind(entry.address)) return callback(new BlockedAddressError(hostname), address, family);
    }
    callback(null, address, family);
  });
};
