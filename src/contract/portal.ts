import { z } from 'zod';
import { signInLinkLimitNote } from './auth-messages.js';

// The license holder's portal (issue 13): `/portal` on a seller's repository host, in the seller's brand, signed
// in by an e-mail link that works on that seller's host only.

/** Sign-in links work once and for this long. */
export const PORTAL_LINK_VALIDITY_MINUTES = 30;

export const portalMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  notAPortalHost:
    "The license portal is on your seller's repository host: open the portal link from your license e-mail.",
  signInRequired: 'Please sign in to the license portal: enter your e-mail address to get a sign-in link.',
  linkInvalid: 'This sign-in link is not valid. Ask for a new link below.',
  linkUsed: 'This sign-in link has already been used. Ask for a new link below.',
  linkExpired: `This sign-in link has expired: links work for ${PORTAL_LINK_VALIDITY_MINUTES} minutes. Ask for a new link below.`,
  signedOut: 'You have signed out of the license portal.',
} as const;

/**
 * The same answer whatever the address (a holder's or not, throttled or not): no one learns from it whether an
 * address holds a license.
 */
export const portalLinkSentMessage = (email: string) =>
  `If ${email} holds a license here, a sign-in link is on its way. It works once, for ${PORTAL_LINK_VALIDITY_MINUTES} minutes. ${signInLinkLimitNote}`;

/** POST /api/portal/sign-in. Presence and shape are checked by the service, so the answer names the field. */
export const portalSignInInput = z.object({ email: z.string().max(320).optional() }).nullish();
export type PortalSignInInput = NonNullable<z.infer<typeof portalSignInInput>>;

/** POST /api/portal/sign-in/verify: the token from the e-mailed link (`/portal?token=`). */
export const portalVerifyInput = z.object({ token: z.string().max(200).optional() }).nullish();

export const portalMessageResponse = z.object({ message: z.string() });

/** GET /api/portal/session: who is signed in on this host; null when nobody is. */
export const portalSessionResponse = z.object({ email: z.string() }).nullable();
export type PortalSession = z.infer<typeof portalSessionResponse>;

/**
 * A license's state as its holder reads it. The first five are the license's own; `unavailable` (the seller
 * deactivated the package) and `limit-reached` (downloads used up) are what Composer refuses for otherwise.
 */
export const portalLicenseStates = [
  'active',
  'expiring',
  'frozen',
  'revoked',
  'expired',
  'unavailable',
  'limit-reached',
] as const;
export type PortalLicenseState = (typeof portalLicenseStates)[number];

export const portalLicense = z.object({
  id: z.string(),
  packageName: z.string(),
  description: z.string().nullable(),
  kind: z.enum(['purchase', 'temporary', 'manual']),
  state: z.enum(portalLicenseStates),
  /** Whole days until the license ends (rounded up); null without an end or once it has ended. */
  daysLeft: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  /** For a frozen license: the newest version released before it ended, the last one it covers. */
  lastVersionCovered: z.string().nullable(),
  /** Tagged versions this license may install now, newest first (none when it gives no access). */
  versions: z.array(z.string()),
  downloadCount: z.number().int(),
  downloadLimit: z.number().int().nullable(),
  lastUsedAt: z.string().nullable(),
  /** What Composer tells the holder about this license on every run, when it says anything. */
  notice: z.string().nullable(),
  /**
   * What the license covers, in words (issue 31): "acme/lib versions ^1.0, stable releases only",
   * "Suite: acme/a, acme/b, acme/c", "5 developer seats".
   */
  covers: z.string(),
  /**
   * The packages the license covers now, the names `composer require` takes: its own package, or every package of
   * its product (a product's name is not a package Composer can find).
   */
  packageNames: z.array(z.string()),
});
export type PortalLicense = z.infer<typeof portalLicense>;

/** A purchase of the holder from this seller (sales), as a receipt: only sales that took money (or gave it back). */
export const portalReceipt = z.object({
  id: z.string(),
  packageName: z.string(),
  tierName: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(['paid', 'refunded', 'disputed']),
  /** A test sale (billing off, or Stripe's test mode): no money moved. */
  isTest: z.boolean(),
  paidAt: z.string(),
});
export type PortalReceipt = z.infer<typeof portalReceipt>;

/** GET /api/portal/licenses: the signed-in holder's licenses from this seller, and how to reach them. */
export const portalOverviewResponse = z.object({
  email: z.string(),
  sellerName: z.string(),
  supportEmail: z.string().nullable(),
  repositoryUrl: z.string(),
  /** The repository entry's name in the setup commands: the seller's slug. */
  repositoryName: z.string(),
  tokenIssuedAt: z.string(),
  licenses: z.array(portalLicense),
  /** Newest first. */
  receipts: z.array(portalReceipt),
});
export type PortalOverview = z.infer<typeof portalOverviewResponse>;

/** POST /api/portal/token: the new Composer token, shown once (also e-mailed). */
export const portalRotateTokenResponse = z.object({
  token: z.string(),
  tokenIssuedAt: z.string(),
  message: z.string(),
});
export type PortalRotateTokenResponse = z.infer<typeof portalRotateTokenResponse>;
