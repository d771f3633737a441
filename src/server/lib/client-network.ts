import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, for the sharing signal of the seller's analytics: the /24 of an IPv4
 * address (`203.0.113.0/24`), the /48 of an IPv6 one (`2001:db8:1::/48`; an IPv4-mapped address counts as IPv4).
 * Never the address itself: a /24 or /48 names a site, not a person. Undefined for anything that is not an address.
 */
export function clientNetwork(address: string | undefined): string | undefined {
  if (!address || address.length > 64) return undefined;
  if (isIPv4(address)) return ipv4Network(address);
  const unzoned = address.split('%', 1)[0] ?? '';
  if (!isIPv6(unzoned)) return undefined;
  const groups = expandIpv6(unzoned);
  if (!groups) return undefined;
  // ::ffff:a.b.c.d, how a dual-stack socket reports an IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return `${high >> 8}.${high & 0xff}.${low >> 8}.0/24`;
  }
  const [a = 0, b = 0, c = 0] = groups;
  const prefix = [a, b, c];
  while (prefix.length > 0 && prefix[prefix.length - 1] === 0) prefix.pop();
  return `${prefix.map((group) => group.toString(16)).join(':')}::/48`;
}

/**
 * Who a per-client limit counts: an IPv4 address itself (an IPv4-mapped one as IPv4), the /64 of an IPv6 one, since
 * one subscriber holds a whole /64 and could otherwise change address at every request. The address as given when
 * it is none of these.
 */
export function clientLimitSubject(address: string): string {
  if (isIPv4(address) || address.length > 64) return address;
  const unzoned = address.split('%', 1)[0] ?? '';
  const groups = isIPv6(unzoned) ? expandIpv6(unzoned) : undefined;
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

function ipv4Network(address: string): string {
  const [a, b, c] = address.split('.');
  return `${Number(a)}.${Number(b)}.${Number(c)}.0/24`;
}

/** The eight 16-bit groups of a valid IPv6 address (node:net has checked it), with any IPv4 tail converted. */
function expandIpv6(address: string): number[] | undefined {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else {
        groups.push(Number.parseInt(piece, 16));
      }
    }
    return groups;
  };
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = parse(halves[0] ?? '');
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const tail = parse(halves[1] ?? '');
  const missing = 8 - head.length - tail.length;
  if (missing < 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}
