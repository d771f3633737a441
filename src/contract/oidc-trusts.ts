import { z } from 'zod';

// Trusted CI identities (issue 32 item 3): a license holder (or the seller for them) names an OIDC issuer, the
// audience its job tokens carry and the subject they must have; a CI job then trades its token at the seller's
// repository host for a short-lived, read-only Composer token, and stores no secret.

/** Where a CI job trades its OIDC token, on the seller's repository host. */
export const OIDC_EXCHANGE_PATH = '/api/composer/oidc-token';
/** A Composer token from an exchange works this long, takes no seat and reads only. */
export const OIDC_TOKEN_LIFETIME_MINUTES = 30;
/** The exchange's body: a job token is about 1 KB; GitLab's and GitHub's stay well below this. */
export const OIDC_EXCHANGE_MAX_BYTES = 16 * 1024;

export const OIDC_ISSUER_PRESETS = {
  githubActions: 'https://token.actions.githubusercontent.com',
  gitlab: 'https://gitlab.com',
} as const;

export const OIDC_TRUST_LIMITS = { name: 100, issuer: 500, audience: 255, subject: 500 } as const;
/** Trusted CI identities one holder may have. */
export const OIDC_TRUSTS_PER_HOLDER = 20;

/** The issuer as compared with a token's `iss`: one trailing slash dropped, nothing else changed. */
export function normalizeIssuer(issuer: string): string {
  return issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
}

/**
 * A subject rule is the exact `sub`, or a prefix ending in `*` right after a `:` or `/` (`repo:acme/shop:*`): the
 * wildcard stands for the rest, so ending the prefix at a separator keeps `repo:acme/shop*` from trusting
 * `repo:acme/shop-forked`. No other `*` is allowed.
 */
export function isSubjectRuleValid(rule: string): boolean {
  const star = rule.indexOf('*');
  if (star === -1) return rule.length > 0;
  if (star !== rule.length - 1) return false;
  const separator = rule.at(-2);
  return rule.length >= 3 && (separator === ':' || separator === '/');
}

/** Whether a token's `sub` satisfies the rule (see isSubjectRuleValid). */
export function subjectMatches(rule: string, subject: string): boolean {
  if (!rule.endsWith('*')) return rule === subject;
  return subject.startsWith(rule.slice(0, -1));
}

// Printable characters without spaces: an audience or subject is compared byte for byte with the token's claim.
const CLAIM_TEXT = /^[\x21-\x7e]+$/;

export const oidcTrustMessages = {
  nameRequired: 'Name is required',
  issuerInvalid: 'The issuer must be an https:// URL without user name, password, query or fragment',
  audienceInvalid: 'The audience must be printable characters without spaces',
  subjectInvalid:
    'The subject must be printable characters without spaces, with at most one * at the end, right after : or /',
  tooMany: `A license holder can trust at most ${OIDC_TRUSTS_PER_HOLDER} CI identities: remove one first.`,
  notFound: 'Trusted CI identity not found',
} as const;

export const oidcTrustInput = z.object({
  name: z.string().trim().min(1, oidcTrustMessages.nameRequired).max(OIDC_TRUST_LIMITS.name),
  issuer: z.string().trim().min(1).max(OIDC_TRUST_LIMITS.issuer),
  audience: z
    .string()
    .trim()
    .min(1)
    .max(OIDC_TRUST_LIMITS.audience)
    .regex(CLAIM_TEXT, oidcTrustMessages.audienceInvalid),
  subject: z
    .string()
    .trim()
    .min(1)
    .max(OIDC_TRUST_LIMITS.subject)
    .regex(CLAIM_TEXT, oidcTrustMessages.subjectInvalid)
    .refine(isSubjectRuleValid, oidcTrustMessages.subjectInvalid),
});
export type OidcTrustInput = z.infer<typeof oidcTrustInput>;

/** API v1's body, with the example its reference shows. */
export const apiV1OidcTrustInput = oidcTrustInput.meta({
  examples: [
    {
      name: 'Shop deploys from main',
      issuer: OIDC_ISSUER_PRESETS.githubActions,
      audience: 'packgate',
      subject: 'repo:acme/shop:ref:refs/heads/main',
    },
  ],
});

export const oidcTrust = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  createdBy: z.enum(['holder', 'seller', 'api']),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type OidcTrust = z.infer<typeof oidcTrust>;
export const oidcTrustList = z.array(oidcTrust);

export const oidcTrustParams = z.object({ customerId: z.uuid(), trustId: z.uuid() });
export const oidcCustomerParams = z.object({ customerId: z.uuid() });
export const oidcTrustIdParams = z.object({ trustId: z.uuid() });

/** POST /api/composer/oidc-token. */
export const oidcExchangeInput = z.object({ token: z.string().min(1).max(OIDC_EXCHANGE_MAX_BYTES) });
export const oidcExchangeResponse = z.object({ token: z.string(), expiresAt: z.string() });
export type OidcExchangeResponse = z.infer<typeof oidcExchangeResponse>;
