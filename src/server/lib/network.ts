import ipaddr from 'ipaddr.js';

/**
 * The network an address belongs to, as the sessions page shows a session's place (issue 33): an IPv4 address's /24,
 * an IPv6 address's /48 (an IPv4-mapped IPv6 address counts as IPv4). Null for anything that is not an address.
 */
export function networkOf(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') {
    const octets = (parsed as ipaddr.IPv4).octets;
    return `${octets[0]}.${octets[1]}.${octets[2]}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts;
  const prefix = new ipaddr.IPv6([parts[0]!, parts[1]!, parts[2]!, 0, 0, 0, 0, 0]);
  return `${prefix.toString()}/48`;
}
