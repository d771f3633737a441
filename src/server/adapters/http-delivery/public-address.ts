import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Where outgoing webhooks may go: public unicast addresses only, so that a seller's URL cannot make the server
// probe the operator's network (private, loopback, link-local, CGNAT, multicast, reserved, IPv6 unique-local,
// IPv6 outside the global unicast space, and IPv6 forms that embed an IPv4 address: mapped, IPv4-compatible, NAT64,
// 6to4, Teredo), with ipaddr.js's table of special ranges. Every address a name resolves to is checked, and the
// connection is pinned to a checked one (webhook-sender.ts), so rebinding the name cannot move it. The allow-list (WEBHOOK_ALLOWED_HOSTS)
// lets named hosts, addresses or ranges through although private; tests allow their loopback receiver.

export class WebhookTargetError extends Error {
  constructor(
    readonly reason: 'not-http' | 'credentials' | 'not-public' | 'not-resolved',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

/** Resolves a host name to all its addresses (IPv4 and IPv6). */
export type AddressResolver = { resolve(hostname: string): Promise<string[]> };

/** DNS_SERVERS when set (a resolver query, as custom-domain checks do), else the system's getaddrinfo. */
export function createAddressResolver(servers: string[] | undefined): AddressResolver {
  if (servers && servers.length > 0) {
    const resolver = new dns.Resolver({ timeout: 5000, tries: 2 });
    resolver.setServers(servers);
    return {
      async resolve(hostname) {
        const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
        return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
      },
    };
  }
  return {
    async resolve(hostname) {
      const found = await dns.lookup(hostname, { all: true, verbatim: true }).catch(() => []);
      return found.map((entry) => entry.address);
    },
  };
}

// IANA's global unicast space for IPv6. ipaddr.js names the special ranges inside it (documentation, 6to4, Teredo,
// ORCHID...) but calls everything it does not name "unicast", including the reserved ::/8 that holds the deprecated
// IPv4-compatible form (::127.0.0.1) and other unassigned space; only addresses inside 2000::/3 are routable.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * The address in the form the connection will read it (Node's parser, as the URL and the socket read it), or
 * undefined for anything that is not a plain IPv4 or IPv6 address. ipaddr.js reads the deprecated `::a.b.c.d` as
 * `::ffff:a.b.c.d`, a different address from the one a socket would connect to, so it only sees canonical forms.
 */
function canonicalAddress(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined; // A zone index (fe80::1%eth0) is not an address a URL can carry.
  }
}

/**
 * True for a public unicast address. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what dual-stack lookups return)
 * is judged as the IPv4 address it carries; every other IPv6 form that embeds an IPv4 address (IPv4-compatible,
 * IPv4-translated, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4, Teredo) is refused whatever it carries, since the
 * gateway that unwraps it may sit inside the operator's network.
 */
export function isPublicAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return false;
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range() === 'unicast';
  return ipv6.range() === 'unicast' && ipv6.match(IPV6_GLOBAL_UNICAST);
}

export type AllowList = readonly string[];

function isAddressAllowed(address: string, allowList: AllowList): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return false;
  const parsed = ipaddr.process(canonical);
  for (const entry of allowList) {
    if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (range.kind() === parsed.kind() && parsed.match(range, bits)) return true;
      } catch {
        // Not a range (config.ts checks the form; a mistyped entry allows nothing).
      }
    } else if (ipaddr.isValid(entry) && ipaddr.process(entry).toString() === parsed.toString()) {
      return true;
    }
  }
  return false;
}

/** The URL as a webhook target, or a WebhookTargetError saying why not (no DNS here: see resolveTarget). */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('not-http', 'The webhook URL must start with https:// or http://');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WebhookTargetError('not-http', 'The webhook URL must start with https:// or http://');
  }
  if (url.username || url.password) {
    throw new WebhookTargetError('credentials', 'The webhook URL must not contain a user name or password');
  }
  return url;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * The address to connect to for the URL: its literal address, or the first of its resolved addresses, every one
 * of which must be public (or allowed). The caller connects to exactly this address, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot send the request elsewhere.
 */
export async function resolveTarget(
  url: URL,
  resolver: AddressResolver,
  allowList: AllowList,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  const isNameAllowed = allowList.includes(host);
  const addresses = isIP(host) ? [host] : await resolver.resolve(host);
  if (addresses.length === 0) {
    throw new WebhookTargetError('not-resolved', 'The webhook URL’s host name could not be resolved');
  }
  for (const address of addresses) {
    if (!isNameAllowed && !isPublicAddress(address) && !isAddressAllowed(address, allowList)) {
      throw new WebhookTargetError('not-public', 'The webhook URL must point to a public internet address');
    }
  }
  const address = addresses[0]!;
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}
