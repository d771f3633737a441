import { describe, expect, it } from 'vitest';
import {
  canRevoke,
  daysLeftText,
  daysLeftTone,
  downloadsText,
  grantStatusLabel,
  searchCustomers,
  temporaryLicenseBadge,
} from './license-rules';

describe('temporaryLicenseBadge', () => {
  it('reads Active only while active with days remaining', () => {
    expect(temporaryLicenseBadge({ isActive: true, daysRemaining: 7 })).toBe('Active');
    expect(temporaryLicenseBadge({ isActive: true, daysRemaining: 1 })).toBe('Active');
  });

  it('reads Expired when inactive, out of days, or without a day count', () => {
    expect(temporaryLicenseBadge({ isActive: false, daysRemaining: 5 })).toBe('Expired');
    expect(temporaryLicenseBadge({ isActive: true, daysRemaining: 0 })).toBe('Expired');
    expect(temporaryLicenseBadge({ isActive: true, daysRemaining: -2 })).toBe('Expired');
    expect(temporaryLicenseBadge({ isActive: true, daysRemaining: null })).toBe('Expired');
  });

  it('reads Revoked alone for a revoked license, never Expired beside it', () => {
    expect(temporaryLicenseBadge({ isActive: false, daysRemaining: 0, revokedAt: '2026-03-01T12:00:00Z' })).toBe(
      'Revoked',
    );
  });

  it('offers Revoke for active licenses only', () => {
    expect(canRevoke({ isActive: true, daysRemaining: 3 })).toBe(true);
    expect(canRevoke({ isActive: false, daysRemaining: 3 })).toBe(false);
  });
});

describe('daysLeftTone', () => {
  it('is grey without a count, red at 0 or less, orange at 3 or less, green above', () => {
    expect(daysLeftTone(null)).toBe('grey');
    expect(daysLeftTone(-1)).toBe('red');
    expect(daysLeftTone(0)).toBe('red');
    expect(daysLeftTone(1)).toBe('orange');
    expect(daysLeftTone(3)).toBe('orange');
    expect(daysLeftTone(4)).toBe('green');
    expect(daysLeftTone(90)).toBe('green');
  });

  it('words the count', () => {
    expect(daysLeftText({ daysRemaining: 1, revokedAt: null })).toBe('1 day left');
    expect(daysLeftText({ daysRemaining: 14, revokedAt: null })).toBe('14 days left');
    expect(daysLeftText({ daysRemaining: 0, revokedAt: null })).toBe('Expired');
    expect(daysLeftText({ daysRemaining: null, revokedAt: null })).toBe('No expiry');
    expect(daysLeftText({ daysRemaining: 0, revokedAt: '2026-03-01T12:00:00Z' })).toBe('Revoked');
  });
});

describe('grants of a license holder', () => {
  it('labels revoked, expired, frozen and active grants', () => {
    expect(grantStatusLabel({ status: 'revoked', isActive: false, endMode: 'access' })).toBe('Revoked');
    expect(grantStatusLabel({ status: 'active', isActive: false, endMode: 'access' })).toBe('Expired');
    expect(grantStatusLabel({ status: 'active', isActive: false, endMode: 'updates' })).toBe('Updates ended');
    expect(grantStatusLabel({ status: 'active', isActive: true, endMode: 'access' })).toBe('Active');
  });

  it('shows downloads against the limit', () => {
    expect(downloadsText({ downloadCount: 3, downloadLimit: 10 })).toBe('3 / 10');
    expect(downloadsText({ downloadCount: 3, downloadLimit: null })).toBe('3 / Unlimited');
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
