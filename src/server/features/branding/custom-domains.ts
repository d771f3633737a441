import type { CnameResolver } from '../../adapters/dns/cname-resolver.js';
import type { AppContext } from '../../context.js';
import type { SellerSelector } from '../../http/hosts.js';
import { findSlugByVerifiedDomain, findSlugByVerifiedZone } from './branding.repository.js';

// Custom Composer hosts (DESIGN "Hosts"): a seller points a name of their own (composer.acme.com) at their own
// repository host {slug}.COMPOSER_DOMAIN with a CNAME, verifies it here, and from then on a request whose Host is
// that name is their repository. The target must be the seller's own host: a CNAME to the bare COMPOSER_DOMAIN
// names nobody, so it would let any seller who typed the name first take it.

export { CustomDomainCache } from './custom-domain-cache.js';

/** The license holders' portal on a seller's own domain: `portal.{zone}`, as the DNS help names it. */
export const PORTAL_SUBDOMAIN = 'portal';

/**
 * The zone a custom domain lives in, as the DNS help reckons it: `composer.acme.com` → `acme.com`; a two-label
 * name is its own zone.
 */
export function zoneOfDomain(domain: string): string {
  const labels = domain.toLowerCase().split('.');
  return labels.length > 2 ? labels.slice(1).join('.') : labels.join('.');
}

type CustomDomainContext = Pick<AppContext, 'db' | 'customDomains'>;

/**
 * The seller whose verified brandDomain is this host name (lower case, no port), or whose verified brandDomain's
 * zone this `portal.` name is; an indexed query (the portal form only on a miss), cached.
 */
export async function findSellerByCustomDomain(
  ctx: CustomDomainContext,
  hostname: string,
): Promise<SellerSelector | undefined> {
  const now = Date.now();
  const cached = ctx.customDomains.get(hostname, now);
  if (cached) return cached.seller;
  const seller = (await findByBrandDomain(ctx, hostname)) ?? (await findByPortalHost(ctx, hostname));
  ctx.customDomains.set(hostname, seller, now);
  return seller;
}

async function findByBrandDomain(ctx: CustomDomainContext, hostname: string): Promise<SellerSelector | undefined> {
  const slug = await findSlugByVerifiedDomain(ctx.db, hostname);
  return slug ? { slug } : undefined;
}

async function findByPortalHost(ctx: CustomDomainContext, hostname: string): Promise<SellerSelector | undefined> {
  const prefix = `${PORTAL_SUBDOMAIN}.`;
  if (!hostname.startsWith(prefix)) return undefined;
  const zone = hostname.slice(prefix.length);
  if (!zone.includes('.')) return undefined;
  const slug = await findSlugByVerifiedZone(ctx.db, zone);
  return slug ? { slug } : undefined;
}

/** Drops cached answers for these names (and their portal hosts) in this process, after a save or a verification. */
export function forgetCustomDomains(
  ctx: Pick<AppContext, 'customDomains'>,
  ...hostnames: (string | null | undefined)[]
): void {
  for (const hostname of hostnames) {
    if (!hostname) continue;
    const name = hostname.toLowerCase();
    ctx.customDomains.delete(name);
    ctx.customDomains.delete(`${PORTAL_SUBDOMAIN}.${zoneOfDomain(name)}`);
  }
}

export type { CnameResolver } from '../../adapters/dns/cname-resolver.js';

export type CnameCheck =
  | { verified: true; message: string }
  /** isDefinite: DNS answered (no record, wrong target); false for timeouts and server failures. */
  | { verified: false; isDefinite: boolean; message: string };

const PROPAGATION_NOTE = 'DNS changes usually take 5-15 minutes to appear, at most 48 hours.';

/** Whether `domain` has a CNAME to the seller's own host `{slug}.{COMPOSER_DOMAIN}`, the one thing only they get. */
export async function checkCname(
  resolver: CnameResolver,
  domain: string,
  targets: { sellerHost: string },
): Promise<CnameCheck> {
  const howTo = `Add a CNAME record for ${domain} pointing to ${targets.sellerHost} (TTL 300), then verify again. ${PROPAGATION_NOTE}`;
  let records: string[];
  try {
    records = await resolver.resolveCname(domain);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENODATA') {
      return { verified: false, isDefinite: true, message: `${domain} has no CNAME record. ${howTo}` };
    }
    if (code === 'ENOTFOUND') {
      return { verified: false, isDefinite: true, message: `${domain} was not found in DNS. ${howTo}` };
    }
    return {
      verified: false,
      isDefinite: false,
      message: `The DNS lookup of ${domain} failed (${code ?? 'unknown error'}). Try again in a few minutes.`,
    };
  }
  const found = records.map((record) => record.toLowerCase().replace(/\.$/, ''));
  if (found.includes(targets.sellerHost)) {
    return { verified: true, message: `${domain} points to ${targets.sellerHost}: your custom domain is verified.` };
  }
  return {
    verified: false,
    isDefinite: true,
    message: `${domain} points to ${found.join(', ') || 'nothing'}, not to ${targets.sellerHost}. Change its CNAME record to ${targets.sellerHost}, then verify again. ${PROPAGATION_NOTE}`,
  };
}
