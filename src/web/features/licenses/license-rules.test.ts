import { describe, expect, it } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../../test/support/case-tables.js';
import {
  canRevoke,
  daysLeftText,
  daysLeftTone,
  downloadsText,
  grantStatusLabel,
  searchCustomers,
  temporaryLicenseBadge,
} from './license-rules';

/** Each rule of temporaryLicenseBadge, with the licenses it reads and the badge it shows for each. */
const badgesByRule: CasesByRule<Parameters<typeof temporaryLicenseBadge>[0], string> = {
  'reads Active only while active with days remaining': [
    [{ isActive: true, daysRemaining: 7 }, 'Active'],
    [{ isActive: true, daysRemaining: 1 }, 'Active'],
  ],
  'reads Expired when inactive, out of days, or without a day count': [
    [{ isActive: false, daysRemaining: 5 }, 'Expired'],
    [{ isActive: true, daysRemaining: 0 }, 'Expired'],
    [{ isActive: true, daysRemaining: -2 }, 'Expired'],
    [{ isActive: true, daysRemaining: null }, 'Expired'],
  ],
  'reads Revoked alone for a revoked license, never Expired beside it': [
    [{ isActive: false, daysRemaining: 0, revokedAt: '2026-03-01T12:00:00Z' }, 'Revoked'],
  ],
};

describe('temporaryLicenseBadge', () => {
  itAnswersEachCase(temporaryLicenseBadge, badgesByRule);

  it('offers Revoke for active licenses only', () => {
    expect(canRevoke({ isActive: true, daysRemaining: 3 })).toBe(true);
    expect(canRevoke({ isActive: false, daysRemaining: 3 })).toBe(false);
  });
});

describe('daysLeftTone', () => {
  itAnswersEachCase(daysLeftTone, {
    'is grey without a count, red at 0 or less, orange at 3 or less, green above': [
      [null, 'grey'],
      [-1, 'red'],
      [0, 'red'],
      [1, 'orange'],
      [3, 'orange'],
      [4, 'green'],
      [90, 'green'],
    ],
  });

  itAnswersEachCase(daysLeftText, {
    'words the count': [
      [{ daysRemaining: 1, revokedAt: null }, '1 day left'],
      [{ daysRemaining: 14, revokedAt: null }, '14 days left'],
      [{ daysRemaining: 0, revokedAt: null }, 'Expired'],
      [{ daysRemaining: null, revokedAt: null }, 'No expiry'],
      [{ daysRemaining: 0, revokedAt: '2026-03-01T12:00:00Z' }, 'Revoked'],
    ],
  });
});

describe('grants of a license holder', () => {
  itAnswersEachCase(grantStatusLabel, {
    'labels revoked, expired, frozen and active grants': [
      [{ status: 'revoked', isActive: false, endMode: 'access' }, 'Revoked'],
      [{ status: 'active', isActive: false, endMode: 'access' }, 'Expired'],
      [{ status: 'active', isActive: false, endMode: 'updates' }, 'Updates ended'],
      [{ status: 'active', isActive: true, endMode: 'access' }, 'Active'],
    ],
  });

  itAnswersEachCase(downloadsText, {
    'shows downloads against the limit': [
      [{ downloadCount: 3, downloadLimit: 10 }, '3 / 10'],
      [{ downloadCount: 3, downloadLimit: null }, '3 / Unlimited'],
    ],
  });

  it('finds holders by e-mail or by package', () => {
    const grant = (packageName: string) => ({
      id: packageName,
      packageId: packageName,
      productId: null,
      packageName,
      kind: 'temporary' as const,
      status: 'active' as const,
      isActive: true,
      expiresAt: null,
      endMode: 'access' as const,
      downloadLimit: null,
      downloadCount: 0,
      lastUsedAt: null,
      versionConstraint: null,
      minimumStability: 'dev' as const,
      seats: null,
    });
    const holder = (email: string, packages: string[]) => ({
      id: email,
      email,
      createdAt: '2026-03-01T12:00:00Z',
      tokenIssuedAt: '2026-03-01T12:00:00Z',
      grants: packages.map(grant),
    });
    const ann = holder('ann@example.com', ['acme/widget']);
    const bob = holder('bob@corp.test', ['acme/gadget']);
    expect(searchCustomers([ann, bob], '')).toEqual([ann, bob]);
    expect(searchCustomers([ann, bob], 'CORP')).toEqual([bob]);
    expect(searchCustomers([ann, bob], 'widget')).toEqual([ann]);
  });
});
