import { type License, type LicenseTermsInput, lastingLicenseMessages } from '../../../contract/licenses.js';
import { AppError } from '../../http/errors.js';
import { presentCustomerGrant } from './customers.service.js';
import type { Grant } from './grants.service.js';
import { parseVersionTerms, type VersionTerms } from './version-terms.js';

// The terms of a lasting license as both doors send them, checked by one rule set, and a license as the seller reads it.

export type LicenseRow = { grant: Grant; email: string; packageName: string };

export function presentLicense(row: LicenseRow, now: Date): License {
  const { grant } = row;
  return {
    ...presentCustomerGrant(grant, row.packageName, now),
    email: row.email,
    note: grant.note,
    createdAt: grant.createdAt.toISOString(),
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}

type ParsedTerms = {
  expiresAt?: Date | null;
  downloadLimit?: number | null;
  endMode?: 'access' | 'updates';
  note?: string | null;
} & VersionTerms;

/** The one rule set: an expiry must lie in the future (null: never expires); a blank note is no note. */
export function parseLicenseTermsInput(input: LicenseTermsInput, now: Date): ParsedTerms {
  const terms: ParsedTerms = {};
  if (input.expiresAt !== undefined) {
    const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      throw new AppError('VALIDATION_FAILED', lastingLicenseMessages.expiryInPast);
    }
    terms.expiresAt = expiresAt;
  }
  if (input.downloadLimit !== undefined) terms.downloadLimit = input.downloadLimit;
  if (input.endMode !== undefined) terms.endMode = input.endMode;
  if (input.note !== undefined) terms.note = input.note?.trim() || null;
  return { ...terms, ...parseVersionTerms(input) };
}
