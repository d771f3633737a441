import type { Customer, CustomerGrant, GrantKind, TemporaryLicense } from '@contract/licenses';
import { DAYS_LEFT_WARNING_THRESHOLD } from '../../lib/constants';

// How licenses read on screen (spec seller-app §4 Temporary license, §9), apart from React for tests.

/**
 * Active while isActive is true and daysRemaining > 0, otherwise Expired (spec §4); a revoked license reads Revoked
 * alone, since calling it Expired as well would not be true.
 */
export function temporaryLicenseBadge(
  license: Pick<TemporaryLicense, 'isActive' | 'daysRemaining'> & { revokedAt?: string | null },
): 'Active' | 'Expired' | 'Revoked' {
  if (license.revokedAt) return 'Revoked';
  return license.isActive && license.daysRemaining !== null && license.daysRemaining > 0 ? 'Active' : 'Expired';
}

/** Revoke is offered for active licenses only. */
export const canRevoke = (license: Pick<TemporaryLicense, 'isActive' | 'daysRemaining'>): boolean =>
  temporaryLicenseBadge(license) === 'Active';

export type DaysLeftTone = 'grey' | 'red' | 'orange' | 'green';

/** Grey without an expiry, red at 0 or less, orange at 3 or less, green otherwise (spec §4, §9). */
export function daysLeftTone(daysRemaining: number | null): DaysLeftTone {
  if (daysRemaining === null) return 'grey';
  if (daysRemaining <= 0) return 'red';
  if (daysRemaining <= DAYS_LEFT_WARNING_THRESHOLD) return 'orange';
  return 'green';
}

export const daysLeftToneClass: Record<DaysLeftTone, string> = {
  grey: 'text-muted-foreground',
  red: 'text-red-600 dark:text-red-500',
  orange: 'text-orange-600 dark:text-orange-400',
  green: 'text-green-600 dark:text-green-500',
};

export function daysLeftText(license: Pick<TemporaryLicense, 'daysRemaining' | 'revokedAt'>): string {
  if (license.revokedAt) return 'Revoked';
  const days = license.daysRemaining;
  if (days === null) return 'No expiry';
  if (days <= 0) return 'Expired';
  return `${days} ${days === 1 ? 'day' : 'days'} left`;
}

export const grantKindLabels: Record<GrantKind, string> = {
  purchase: 'Purchase',
  temporary: 'Temporary',
  manual: 'Manual',
};

/** Revoked, Expired (or Updates ended, for a frozen grant), or Active. */
export function grantStatusLabel(grant: Pick<CustomerGrant, 'status' | 'isActive' | 'endMode'>): string {
  if (grant.status === 'revoked') return 'Revoked';
  if (!grant.isActive) return grant.endMode === 'updates' ? 'Updates ended' : 'Expired';
  return 'Active';
}

export function downloadsText(grant: Pick<CustomerGrant, 'downloadCount' | 'downloadLimit'>): string {
  return grant.downloadLimit === null
    ? `${grant.downloadCount} / Unlimited`
    : `${grant.downloadCount} / ${grant.downloadLimit}`;
}

/** Holders whose e-mail or one of whose packages contains the search, ignoring case. */
export function searchCustomers(customers: readonly Customer[], search: string): Customer[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...customers];
  return customers.filter(
    (customer) =>
      customer.email.toLowerCase().includes(needle) ||
      customer.grants.some((grant) => grant.packageName.toLowerCase().includes(needle)),
  );
}

export const temporaryLicenseMessages = { emailRequired: 'Email is required' } as const;

export const durationLabel = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'}`;

/** Dates in en-US (spec seller-app §9), one format across the app. */
export { formatDate, formatDateTime } from '../../lib/format-date';
