import { promises as dns } from 'node:dns';

/** What custom-domain verification needs of DNS: node's resolver, or a fake in tests. */
export type CnameResolver = { resolveCname(hostname: string): Promise<string[]> };

/** node:dns with the servers from DNS_SERVERS when set (a resolver that sees changes sooner than the system's). */
export function createCnameResolver(servers: string[] | undefined): CnameResolver {
  const resolver = new dns.Resolver({ timeout: 5000, tries: 2 });
  if (servers && servers.length > 0) resolver.setServers(servers);
  return resolver;
}
