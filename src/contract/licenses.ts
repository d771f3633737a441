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

/** A license's version constraint has at most this many characters (lib/composer-versions refuses longer ones). */
export const LICENSE_VERSION_CONSTRAINT_MAX_LENGTH = 200;
/** Composer's stabilities, most stable first: a license's minimumStability is the least stable it covers. */
export const licenseStabilities = ['stable', 'RC', 'beta', 'alpha', 'dev'] as const;
export type LicenseStability = (typeof licenseStabilities)[number];

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
  /** A Composer constraint the versions must match (`^1.0`); null: every version. */
  versionConstraint: z.string().nullable(),
  /** The least stable versions covered; `dev` covers everything. */
  minimumStability: z.enum(licenseStabilities),
  /** How many developer tokens the holder may have at once; null: unlimited. */
  seats: z.number().int().nullable(),
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

/**
 * GET /api/customers pages (issue 34): `limit` holders, newest first, starting after the holder `after` (the last
 * id of the page before; a full page means there may be more), those matching `q` (e-mail or a held package's name).
 */
export const CUSTOMER_PAGE_DEFAULT = 100;
export const CUSTOMER_PAGE_MAX = 500;
export const customerListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(CUSTOMER_PAGE_MAX).default(CUSTOMER_PAGE_DEFAULT),
  after: z.uuid().optional(),
  q: z.string().max(200).optional(),
});
export type CustomerListQuery = z.infer<typeof customerListQuery>;

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
  nothingToUpdate:
    'Send at least one of expiresAt, downloadLimit, endMode, note, versionConstraint, minimumStability, seats or status',
  versionConstraintTooLong: `versionConstraint has at most ${LICENSE_VERSION_CONSTRAINT_MAX_LENGTH} characters`,
  minimumStabilityInvalid: 'minimumStability must be stable, RC, beta, alpha or dev',
  seatsInvalid: 'seats must be a whole number from 1, or empty for unlimited',
} as const;

/** The terms both doors accept. expiresAt null: never expires; downloadLimit null: unlimited. */
export const licenseTermsInput = z.object({
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  downloadLimit: z.number().int().min(1).max(LICENSE_DOWNLOAD_LIMIT_MAX).nullable().optional(),
  /** What ends at expiry: `access` (everything) or `updates` (versions released before it stay installable). */
  endMode: z.enum(grantEndModes).optional(),
  note: z.string().max(LICENSE_NOTE_MAX_LENGTH).nullable().optional(),
  /** A Composer constraint (`^1.0`, `>=2.0 <3.0`) the versions must match; null: every version. */
  versionConstraint: z
    .string()
    .max(LICENSE_VERSION_CONSTRAINT_MAX_LENGTH, lastingLicenseMessages.versionConstraintTooLong)
    .nullable()
    .optional(),
  /** The least stable versions covered: `stable`, `RC`, `beta`, `alpha` or `dev` (every version, the default). */
  minimumStability: z.enum(licenseStabilities, { error: lastingLicenseMessages.minimumStabilityInvalid }).optional(),
  /** How many developer tokens the holder may have at once (CI, deploy and bot tokens take none); null: unlimited. */
  seats: z
    .number({ error: lastingLicenseMessages.seatsInvalid })
    .int(lastingLicenseMessages.seatsInvalid)
    .min(1, lastingLicenseMessages.seatsInvalid)
    .max(LICENSE_DOWNLOAD_LIMIT_MAX, lastingLicenseMessages.seatsInvalid)
    .nullable()
    .optional(),
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

/** More packages than one call licenses; bounds the request before it is read. */
export const LICENSE_PACKAGES_MAX = 100;

export const licenseTargetMessages = {
  oneTarget: 'Send exactly one of packageId, packageIds or productId',
  packagesEmpty: 'packageIds must name at least one package',
  packageTwice: 'packageIds names a package twice',
  packageUnknown: 'packageIds names a package that is not yours',
} as const;

/**
 * What one call licenses: a package (packageId), several packages at once (packageIds: one license each, one
 * e-mail, one transaction) or a product (productId: one license covering its packages). Exactly one is sent.
 */
export const licenseTargetInput = z.object({
  packageId: z.string().max(200).optional(),
  packageIds: z.array(z.string().max(200)).max(LICENSE_PACKAGES_MAX).optional(),
  productId: z.string().max(200).optional(),
});

/** POST /api/licenses (Management): a holder licensed for several packages or a product in one go. */
export const issueLicensesInput = issueLicenseInput.extend(licenseTargetInput.shape);
export type IssueLicensesInput = z.infer<typeof issueLicensesInput>;

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
  /** The first license issued (the only one, for one package). */
  license,
  /** Every license this call issued or renewed: one per package of packageIds, or the product's one. */
  licenses: z.array(license),
  outcome: z.enum(['created', 'renewed']),
  emailSent: z.boolean(),
  repositoryUrl: z.string(),
  composerToken: z.string().nullable(),
  setupCommands: z.array(z.string()),
});
export type IssuedLicense = z.infer<typeof issuedLicense>;
