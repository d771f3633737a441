import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { CnameResolver } from '../../adapters/dns/cname-resolver.js';
import type { AppContext } from '../../context.js';
import { brandSettings, users } from '../../db/schema/index.js';
import type { SellerSelector } from '../../http/hosts.js';

// Custom Composer hosts (DESIGN "Hosts"): a seller points a name of their own (composer.acme.com) at their own
// repository host {slug}.COMPOSER_DOMAIN with a CNAME, verifies it here, and from then on a request whose Host is
// that name is their repository. The target must be the seller's own host: a CNAME to the bare COMPOSER_DOMAIN
// names nobody, so it would let any seller who typed the name first take it.

// Every request to an unknown host would otherwise cost a query; misses are remembered too, so that random Host
// headers cannot turn into a stream of queries. Short enough that another process sees a change within seconds.
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

type CacheEntry = { seller: SellerSelector | undefined; expiresAt: number };

// One cache per database: several apps (tests) may share this process, each with a database of its own.
const caches = new WeakMap<object, Map<string, CacheEntry>>();

function cacheFor(ctx: Pick<AppContext, 'db'>): Map<string, CacheEntry> {
  let cache = caches.get(ctx.db);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.db, cache);
  }
  return cache;
}

/** The seller whose verified brandDomain is this host name (lower case, no port); one indexed query, cached. */
export async function findSellerByCustomDomain(
  ctx: Pick<AppContext, 'db'>,
  hostname: string,
): Promise<SellerSelector | undefined> {
  const cache = cacheFor(ctx);
  const now = Date.now();
  const cached = cache.get(hostname);
  if (cached && cached.expiresAt > now) return cached.seller;
  const [row] = await ctx.db
    .select({ slug: users.slug })
    .from(brandSettings)
    .innerJoin(users, eq(users.id, brandSettings.userId))
    // lower(brand_domain) is what the unique index covers, so this is an index lookup.
    .where(and(sql`lower(${brandSettings.brandDomain}) = ${hostname}`, isNotNull(brandSettings.brandDomainVerifiedAt)))
    .limit(1);
  if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
  const seller = row ? { slug: row.slug } : undefined;
  cache.set(hostname, { seller, expiresAt: now + CACHE_TTL_MS });
  return seller;
}

/** Drops cached answers for these names in this process, after a save or a verification changed them. */
export function forgetCustomDomains(ctx: Pick<AppContext, 'db'>, ...hostnames: (string | null | undefined)[]): void {
  const cache = cacheFor(ctx);
  for (const hostname of hostnames) if (hostname) cache.delete(hostname.toLowerCase());
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
