import type { Config } from '../config.js';

// DESIGN "URLs and hosts": every absolute URL Packgate sends (e-mails, setup commands, purchase and success pages,
// redirects, API answers, webhook payloads, Composer metadata) is built here, from configuration (PUBLIC_URL's scheme
// and port, COMPOSER_DOMAIN) and names Packgate has verified (a seller's slug, a verified custom domain), never from
// a request's headers (issue 28: a portal e-mail built from the Host header sent a holder's sign-in link elsewhere).
// A request picks which known name applies (http/hosts.ts resolves it); the URL is written from that name.

type PublicUrlParts = { scheme: string; portSuffix: string };

// PUBLIC_URL's parts, parsed once per value: the Composer fast path builds a URL per request (tests change PUBLIC_URL
// after start-up, so the value is compared, not assumed).
let parsed: { publicUrl: string; parts: PublicUrlParts } | undefined;

function partsOf(publicUrl: string): PublicUrlParts {
  if (parsed?.publicUrl === publicUrl) return parsed.parts;
  const url = new URL(publicUrl);
  // URL drops a scheme's default port (http:80, https:443), and so does Composer's own origin.
  const parts = { scheme: `${url.protocol}//`, portSuffix: url.port ? `:${url.port}` : '' };
  parsed = { publicUrl, parts };
  return parts;
}

/** PUBLIC_URL (the app and the marketing site) followed by a root-relative `path`. */
export function appUrl(config: Pick<Config, 'publicUrl'>, path = ''): string {
  return `${config.publicUrl}${path}`;
}

/**
 * `http://acme.composer.localhost:5000`: the URL of one of Packgate's hosts, with PUBLIC_URL's scheme and port (the
 * app listens on one port for every host). `hostname` must be a name Packgate knows, never one a request wrote.
 */
export function hostUrl(config: Pick<Config, 'publicUrl'>, hostname: string): string {
  const parts = partsOf(config.publicUrl);
  return `${parts.scheme}${hostname}${parts.portSuffix}`;
}

/** `acme.composer.localhost:5000`: a host as Composer keys its credentials (host plus a non-default port). */
export function hostAuthority(config: Pick<Config, 'publicUrl'>, hostname: string): string {
  return `${hostname}${partsOf(config.publicUrl).portSuffix}`;
}

/** What a seller's repository URL depends on: the seller's subdomain, or their verified custom domain. */
export type RepositorySeller = { slug: string; brandDomain?: string };

/** The name of a seller's Composer repository host: the verified custom domain, else `{slug}.{COMPOSER_DOMAIN}`. */
export function repositoryHostname(config: Pick<Config, 'composerDomain'>, seller: RepositorySeller): string {
  return seller.brandDomain ?? `${seller.slug}.${config.composerDomain}`;
}

/** The seller's Composer repository URL (DESIGN "Hosts"), as e-mails, setup commands and purchase pages give it. */
export function repositoryUrl(config: Pick<Config, 'publicUrl' | 'composerDomain'>, seller: RepositorySeller): string {
  return hostUrl(config, repositoryHostname(config, seller));
}
