import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Where outgoing webhooks may go: public unicast addresses only, so that a seller's URL cannot make the server
// probe the operator's network (private, loopback, link-local, CGNAT, multicast, reserved, IPv6 unique-local,
// and IPv6 forms that embed an IPv4 address: mapped, NAT64, 6to4, Teredo). The allow-list (WEBHOOK_ALLOWED_HOSTS)
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

/** True for a public unicast address; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

export type AllowList = readonly string[];

function isAddressAllowed(address: string, allowList: AllowList): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
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
