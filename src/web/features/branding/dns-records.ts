import {
  DNS_COMPOSER_SUBDOMAIN,
  DNS_PORTAL_SUBDOMAIN,
  DNS_PROPAGATION_MAX_HOURS,
  DNS_PROPAGATION_TYPICAL,
  DNS_RECORD_TTL_SECONDS,
} from '../../lib/constants';

// The records of the DNS setup help (spec seller-app §9): CNAMEs for the composer and portal subdomains
// of the seller's domain, pointing at the seller's Composer host and at the app's host.

export const EXAMPLE_ZONE = 'yourcompany.com';

export type DnsRecord = {
  type: 'CNAME';
  /** The record's name inside the seller's zone ("composer"). */
  name: string;
  /** The full host name the record creates ("composer.acme.com"). */
  host: string;
  /** Where it points. */
  value: string;
  ttl: number;
  purpose: string;
};

const hostnameOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/**
 * The zone a custom domain lives in: `composer.acme.com` → `acme.com`. A bare domain is taken as the zone
 * itself (a zone apex cannot carry a CNAME); an empty one gives the example zone.
 */
export function zoneOf(brandDomain: string | null | undefined): string {
  const domain = (brandDomain ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (!domain) return EXAMPLE_ZONE;
  const labels = domain.split('.');
  return labels.length > 2 ? labels.slice(1).join('.') : domain;
}

/** The composer host a custom domain stands for: the domain itself, or `composer.` in front of a bare one. */
export function composerHostOf(brandDomain: string | null | undefined): string {
  const domain = (brandDomain ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (domain && domain.split('.').length > 2) return domain;
  return `${DNS_COMPOSER_SUBDOMAIN}.${zoneOf(domain)}`;
}

export function dnsRecords(input: {
  brandDomain: string | null | undefined;
  /** The seller's own host, `{slug}.{COMPOSER_DOMAIN}`: what the composer record points to. */
  composerTarget: string;
  publicUrl: string;
}): DnsRecord[] {
  const composerHost = composerHostOf(input.brandDomain);
  const zone = zoneOf(input.brandDomain);
  return [
    {
      type: 'CNAME',
      name: composerHost.slice(0, -(zone.length + 1)),
      host: composerHost,
      value: input.composerTarget,
      ttl: DNS_RECORD_TTL_SECONDS,
      purpose: 'Your Composer repository: license holders add this URL and send their token to it.',
    },
    {
      type: 'CNAME',
      name: DNS_PORTAL_SUBDOMAIN,
      host: `${DNS_PORTAL_SUBDOMAIN}.${zone}`,
      value: hostnameOf(input.publicUrl),
      ttl: DNS_RECORD_TTL_SECONDS,
      purpose: 'Optional: an address on your domain for the pages license holders open in a browser.',
    },
  ];
}

/**
 * Why the composer record must name the seller's own host: verification accepts nothing else, since the bare
 * Composer domain (the part after the slug) is the same for every seller and so proves nothing.
 */
export function composerTargetNote(composerTarget: string): string {
  const bareComposerDomain = composerTarget.slice(composerTarget.indexOf('.') + 1);
  return `Point it at ${composerTarget} exactly: that host is yours alone, which is how verification knows the domain is yours. A CNAME to ${bareComposerDomain} does not verify.`;
}

export const dnsPropagationNote = () =>
  `DNS changes usually take ${DNS_PROPAGATION_TYPICAL} to propagate, and at most ${DNS_PROPAGATION_MAX_HOURS} hours.`;
