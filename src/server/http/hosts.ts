import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import type { ParsedHost } from './host-header.js';
import type { RequestOrigin } from './request-origin.js';

// DESIGN "Hosts": one process answers for the app and for every seller's Composer repository. Composer keeps
// one credential per host, so each seller gets a host of its own and a license holder who buys from several
// sellers keeps one token per host in auth.json.

/** Which seller a repository host names; `undefined` on the bare COMPOSER_DOMAIN, where the token decides. */
export type SellerSelector = { slug: string };
// A verified custom domain (branding's brandDomain, a CNAME to COMPOSER_DOMAIN) resolves to its seller's slug
// in registerHosts, so the Composer queries and everything else treat it exactly as `{slug}.{COMPOSER_DOMAIN}`;
// so does `portal.{its zone}`, the CNAME the DNS help offers for the license holders' portal (issue 13).

/** The seller whose verified custom domain this host name is (branding); undefined when it is nobody's. */
export type CustomDomainLookup = (hostname: string) => Promise<SellerSelector | undefined>;

export type RequestHost =
  /** PUBLIC_URL's host, and any host we do not recognise (IP addresses, other names, unverified domains). */
  | { kind: 'app' }
  /**
   * `{slug}.{COMPOSER_DOMAIN}`, a verified custom domain, or the bare COMPOSER_DOMAIN (seller undefined). `hostname`
   * is that known name as resolved (lower case, no port): the repository's URL is built from it and configuration
   * (http/public-urls.ts), never from the header.
   */
  | { kind: 'repository'; seller: SellerSelector | undefined; hostname: string };

declare module 'fastify' {
  interface FastifyRequest {
    requestHost: RequestHost;
  }
}

const APP_HOST: RequestHost = { kind: 'app' };
// One DNS label, as users.slug is (see features/users/slug.ts).
const SLUG_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The answer to a Host that is not `hostname[:port]`: before any route, so nothing is built from it. */
export function invalidHostError(): AppError {
  return new AppError('BAD_REQUEST', 'The Host header is not a host name with an optional port.', {
    suggestion: 'Send only the host name and port of the address, such as acme.composer.localhost:5000.',
  });
}

/**
 * Resolves a request's host, as host-header.ts parsed it, in DESIGN's order: the app's own host;
 * `{slug}.{COMPOSER_DOMAIN}`; the bare COMPOSER_DOMAIN. Ports are ignored: the repository hosts share the app's port.
 */
export function resolveHost(
  config: Pick<Config, 'publicUrl' | 'composerDomain'>,
  host: ParsedHost | undefined,
  appHostname: AppHostname = new AppHostname(),
): RequestHost {
  if (!host) return APP_HOST;
  const hostname = host.hostname;
  const composerDomain = config.composerDomain;
  if (hostname === appHostname.of(config.publicUrl)) return APP_HOST;
  if (hostname === composerDomain) return { kind: 'repository', seller: undefined, hostname };
  if (hostname.endsWith(`.${composerDomain}`)) {
    const slug = hostname.slice(0, -composerDomain.length - 1);
    // Deeper names (`a.b.composer.localhost`) and malformed labels name no seller.
    if (SLUG_LABEL.test(slug)) return { kind: 'repository', seller: { slug }, hostname };
  }
  return APP_HOST;
}

/**
 * PUBLIC_URL's host name, parsed once per value: parsing it on every request would be waste, and tests change
 * PUBLIC_URL after start-up. One per app, made in buildApp and handed out on the context (no module state).
 */
export class AppHostname {
  private publicUrl = '';
  private hostname = '';

  of(publicUrl: string): string {
    if (publicUrl !== this.publicUrl) {
      this.hostname = new URL(publicUrl).hostname;
      this.publicUrl = publicUrl;
    }
    return this.hostname;
  }
}

/**
 * Whether a host that resolveHost gave to the app could be a custom domain: a name with a dot that is neither the
 * app's nor under COMPOSER_DOMAIN, and no IP address. Only these cost a lookup.
 */
export function isCustomDomainCandidate(
  config: Pick<Config, 'publicUrl' | 'composerDomain'>,
  hostname: string,
  appHostname: AppHostname = new AppHostname(),
): boolean {
  const composerDomain = config.composerDomain;
  if (hostname === '' || hostname === appHostname.of(config.publicUrl)) return false;
  if (hostname === composerDomain || hostname.endsWith(`.${composerDomain}`)) return false;
  return hostname.includes('.') && !hostname.startsWith('[') && !/^[\d.]+$/.test(hostname);
}

/**
 * Parses and resolves every request's host once, before any route, for the Composer routes and anything white-label:
 * a Host that is not `hostname[:port]` is refused with 400 here; a verified custom domain comes first, as DESIGN
 * orders it (it can never be the app's host or under COMPOSER_DOMAIN). `originOf` is the reader the Composer fast
 * path uses too (request-origin.ts), so both read the host, and X-Forwarded-Host behind TRUST_PROXY, alike.
 */
export function registerHosts(
  app: FastifyInstance,
  config: Config,
  originOf: (raw: IncomingMessage) => RequestOrigin,
  findCustomDomainSeller?: CustomDomainLookup,
  appHostname: AppHostname = new AppHostname(),
): void {
  // Set by the hook below before any handler runs; Fastify wants no shared object as a decorator's default.
  app.decorateRequest('requestHost');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const host = originOf(request.raw).host;
    if (host === 'invalid') throw invalidHostError();
    const resolved = resolveHost(config, host, appHostname);
    if (resolved.kind === 'app' && host && findCustomDomainSeller) {
      const hostname = host.hostname;
      if (isCustomDomainCandidate(config, hostname, appHostname)) {
        const seller = await findCustomDomainSeller(hostname);
        if (seller) {
          request.requestHost = { kind: 'repository', seller, hostname };
          return;
        }
      }
    }
    request.requestHost = resolved;
  });
}
