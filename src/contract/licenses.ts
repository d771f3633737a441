import { z } from 'zod';
import { entityId } from './ids.js';
import { packageIdParams } from './packages.js';

// Licenses (grants) and their holders (customers): spec seller-app §3 Temporary license, §5, §7, §9.

/** Spec §5 and §9: the only durations a temporary license may have, and the preselected one. */
export const TEMPORARY_LICENSE_DURATIONS = [1, 3, 7, 14, 30, 60, 90] as const;
export const DEFAULT_TEMPORARY_LICENSE_DURATION = 7;
export type TemporaryLicenseDuration = (typeof TEMPORARY_LICENSE_DURATIONS)[number];

export const licenseMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  durationInvalid: 'Duration must be 1, 3, 7, 14, 30, 60 or 90 days',
  packageNotFound: 'Package not found',
  licenseNotFound: 'License not found',
  customerNotFound: 'License holder not found',
} as const;

export const grantKinds = ['purchase', 'temporary', 'manual'] as const;
export type GrantKind = (typeof grantKinds)[number];
export const grantStatuses = ['active', 'revoked'] as const;
/** At expiry, `access` ends everything; `updates` freezes: versions released before the end stay installable. */
export const grantEndModes = ['access', 'updates'] as const;
export type GrantEndMode = (typeof grantEndModes)[number];

export const temporaryLicenseParams = packageIdParams.extend({ licenseId: entityId });

/**
 * POST /api/repositories/{id}/temporary-licenses. Presence and the allowed durations are checked by
 * the service, so that the answer carries the spec's own sentence ('Email is required').
 */
export const createTemporaryLicenseInput = z
  .object({
    email: z.string().max(320).optional(),
    durationDays: z.number().int().optional(),
    note: z.string().max(1000).nullish(),
  })
  .nullish();
export type CreateTemporaryLicenseInput = NonNullable<z.infer<typeof createTemporaryLicenseInput>>;

/**
 * One temporary license of a package.
 * - isActive: not revoked and not yet expired.
 * - daysRemaining: whole days until expiry, rounded up; 0 or negative once expired, 0 when revoked.
 * - revokedAt: set once the seller revoked it (the spec's list then reads Expired).
 */
/**
 * What became of the latest e-mail about a license: delivered, still being retried, or failed for good (the
 * dialog says it was not delivered). Null when none was sent.
 */
export const emailDelivery = z.enum(['delivered', 'pending', 'failed']).nullable();
export type EmailDelivery = z.infer<typeof emailDelivery>;

export const temporaryLicense = z.object({
  id: z.string(),
  email: z.string(),
  isActive: z.boolean(),
  daysRemaining: z.number().int().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  note: z.string().nullable(),
  revokedAt: z.string().nullable(),
  emailDelivery: emailDelivery.optional(),
});
export type TemporaryLicense = z.infer<typeof temporaryLicense>;
export const temporaryLicenseList = z.array(temporaryLicense);

/** A grant as the seller sees it under a license holder (GET /api/customers). */
export const customerGrant = z.object({
  id: z.string(),
  /** Null for a license of a product (productId). */
  packageId: z.string().nullable(),
  productId: z.string().nullable(),
  packageName: z.string(),
  kind: z.enum(grantKinds),
  status: z.enum(grantStatuses),
  /** Active and not past its expiry (a frozen grant past its end date reads false). */
  isActive: z.boolean(),
  expiresAt: z.string().nullable(),
  endMode: z.enum(grantEndModes),
  downloadLimit: z.number().int().nullable(),
  downloadCount: z.number().int(),
  lastUsedAt: z.string().nullable(),
  emailDelivery: emailDelivery.optional(),
});
export type CustomerGrant = z.infer<typeof customerGrant>;

export const customer = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: z.string(),
  tokenIssuedAt: z.string(),
  grants: z.array(customerGrant),
});
export type Customer = z.infer<typeof customer>;
export const customerList = z.array(customer);

/** Nullish for the same reason: a missing e-mail gets 'Email is required', not a schema error. */
export const regenerateTokenInput = z.object({ email: z.string().max(320).optional() }).nullish();
export type RegenerateTokenInput = NonNullable<z.infer<typeof regenerateTokenInput>>;

export const regenerateTokenResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  email: z.string(),
  tokenIssuedAt: z.string(),
});
export type RegenerateTokenResponse = z.infer<typeof regenerateTokenResponse>;

// Lasting licenses (issue 16): the terms a seller sets by hand in Management (`POST /api/repositories/{id}/licenses`,
// `PATCH /api/licenses/{licenseId}`) and a shop sets through API v1 (`/api/v1/licenses`). One rule set for both:
// no expiry or a date in the future, an optional download limit, what ends at expiry (access or updates), a note.

export const LICENSE_NOTE_MAX_LENGTH = 1000;
/** A download limit is a whole number from 1 up to this; null (or absent) means unlimited. */
export const LICENSE_DOWNLOAD_LIMIT_MAX = 1_000_000;

export const lastingLicenseMessages = {
  expiryInPast: 'The expiry date must be in the future',
  downloadLimitInvalid: `The download limit must be a whole number from 1 to ${LICENSE_DOWNLOAD_LIMIT_MAX}, or empty for unlimited`,
  nothingToUpdate: 'Send at least one of expiresAt, downloadLimit, endMode, note or status',
} as const;

/** The terms both doors accept. expiresAt null: never expires; downloadLimit null: unlimited. */
export const licenseTermsInput = z.object({
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  downloadLimit: z.number().int().min(1).max(LICENSE_DOWNLOAD_LIMIT_MAX).nullable().optional(),
  /** What ends at expiry: `access` (everything) or `updates` (versions released before it stay installable). */
  endMode: z.enum(grantEndModes).optional(),
  note: z.string().max(LICENSE_NOTE_MAX_LENGTH).nullable().optional(),
});
export type LicenseTermsInput = z.infer<typeof licenseTermsInput>;

/**
 * POST /api/repositories/{id}/licenses: issue a lasting (kind `manual`) license to a holder by e-mail.
 * The e-mail's presence is checked by the service so that the answer reads 'Email is required'.
 * sendEmail (default true): send the same branded e-mail as a temporary license.
 */
export const issueLicenseInput = licenseTermsInput.extend({
  email: z.string().max(320).optional(),
  sendEmail: z.boolean().optional(),
});
export type IssueLicenseInput = z.infer<typeof issueLicenseInput>;

/**
 * PATCH /api/licenses/{licenseId}: change any of the terms; absent fields keep their value. `status: 'revoked'`
 * revokes the license (the holder's next Composer request is refused), `status: 'active'` restores it.
 */
export const updateLicenseInput = licenseTermsInput.extend({ status: z.enum(grantStatuses).optional() });
export type UpdateLicenseInput = z.infer<typeof updateLicenseInput>;
export const licenseIdParams = z.object({ licenseId: entityId });

/** One license (grant) of any kind, with its holder and terms. GET /api/repositories/{id}/licenses lists a package's. */
export const license = customerGrant.extend({
  email: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type License = z.infer<typeof license>;
export const licenseList = z.array(license);

/**
 * The answer to issuing a license: the license, whether it was new or an existing one took the new terms,
 * and what the holder needs to install: the repository URL and the setup commands. `composerToken` is the
 * holder's Composer token when this request created the holder (shown once, never again), else null; the
 * commands then carry YOUR_TOKEN in its place.
 */
export const issuedLicense = z.object({
  license,
  outcome: z.enum(['created', 'renewed']),
  emailSent: z.boolean(),
  repositoryUrl: z.string(),
  composerToken: z.string().nullable(),
  setupCommands: z.array(z.string()),
});
export type IssuedLicense = z.infer<typeof issuedLicense>;
