import { z } from 'zod';

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

export const packageIdParams = z.object({ id: z.string() });
export const temporaryLicenseParams = z.object({ id: z.string(), licenseId: z.string() });

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
});
export type TemporaryLicense = z.infer<typeof temporaryLicense>;
export const temporaryLicenseList = z.array(temporaryLicense);

/** A grant as the seller sees it under a license holder (GET /api/customers). */
export const customerGrant = z.object({
  id: z.string(),
  packageId: z.string(),
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
