import { isIPv4, isIPv6 } from 'node:net';

// The key under which a client address is throttled. An IPv4 address is one client. An IPv6
// client is usually given a whole /64 (one household, one phone), and can pick any address in it:
// counting each address apart would hand it 2^64 fresh budgets, so the /64 is the key.
// An IPv4 address written in IPv6 form (::ffff:192.0.2.1, as a dual-stack socket reports it) is
// the IPv4 address. Anything else (no address at all) is kept as it is.

export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%')[0]!; // a zone (fe80::1%eth0) names an interface, not a client
  let text = address;
  // A trailing dotted quad (::ffff:1.2.3.4 or 64:ff9b::1.2.3.4) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}
