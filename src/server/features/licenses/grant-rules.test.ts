import { describe, expect, it } from 'vitest';
import { OPEN_GRANT_FACTS } from '../../../../test/support/grant-facts.js';
import { evaluateGrant, type GrantFacts, grantNotice } from './grant-rules.js';

const NOW = new Date('2026-03-01T12:00:00Z');

function grant(overrides: Partial<GrantFacts> = {}): GrantFacts {
  return {
    packageName: 'acme/widget',
    ...OPEN_GRANT_FACTS,
    ...overrides,
  };
}

describe('evaluateGrant', () => {
  it('allows an active grant without an end, and one whose end is ahead', () => {
    expect(evaluateGrant(grant(), NOW)).toEqual({ isAllowed: true });
    expect(evaluateGrant(grant({ expiresAt: new Date('2026-03-02') }), NOW)).toEqual({ isAllowed: true });
  });

  it('refuses a revoked grant, whatever else holds', () => {
    expect(evaluateGrant(grant({ status: 'revoked', packageIsActive: false }), NOW)).toEqual({
      isAllowed: false,
      reason: 'revoked',
      message: 'Your license for acme/widget has been revoked.',
    });
  });

  it('refuses an access grant from the instant it expires', () => {
    expect(evaluateGrant(grant({ expiresAt: NOW }), NOW)).toEqual({
      isAllowed: false,
      reason: 'expired',
      message: 'Your license for acme/widget expired on 2026-03-01. Ask the seller to renew it.',
    });
  });

  it('freezes an updates grant at its end: allowed, limited to releases before it', () => {
    const end = new Date('2026-02-01T00:00:00Z');
    expect(evaluateGrant(grant({ expiresAt: end, endMode: 'updates' }), NOW)).toEqual({
      isAllowed: true,
      publishedBefore: end,
    });
  });

  it('refuses a deactivated package', () => {
    expect(evaluateGrant(grant({ packageIsActive: false }), NOW)).toMatchObject({
      isAllowed: false,
      reason: 'package-inactive',
      message: 'acme/widget is no longer available: the seller has deactivated it.',
    });
  });

  it('refuses at the download limit, and not below it', () => {
    expect(evaluateGrant(grant({ downloadLimit: 10, downloadCount: 9 }), NOW).isAllowed).toBe(true);
    expect(evaluateGrant(grant({ downloadLimit: 10, downloadCount: 10 }), NOW)).toEqual({
      isAllowed: false,
      reason: 'download-limit',
      message: 'Download limit reached for acme/widget: 10 of 10 downloads used. Ask the seller for more.',
    });
    expect(evaluateGrant(grant({ downloadLimit: 0 }), NOW).isAllowed).toBe(false);
  });

  it('applies the download limit to a frozen grant too', () => {
    const frozen = grant({ expiresAt: new Date('2026-02-01'), endMode: 'updates', downloadLimit: 1, downloadCount: 1 });
    expect(evaluateGrant(frozen, NOW)).toMatchObject({ isAllowed: false, reason: 'download-limit' });
  });
});

describe('grantNotice', () => {
  it('says nothing of a license without an end or ending in more than 7 days', () => {
    expect(grantNotice(grant(), NOW)).toBeUndefined();
    expect(grantNotice(grant({ expiresAt: new Date('2026-03-08T12:00:01Z') }), NOW)).toBeUndefined();
  });

  it('counts the days left, rounded up, within the last 7', () => {
    expect(grantNotice(grant({ expiresAt: new Date('2026-03-08T12:00:00Z') }), NOW)).toBe(
      'Your license for acme/widget ends in 7 days (2026-03-08).',
    );
    expect(grantNotice(grant({ expiresAt: new Date('2026-03-06T12:00:00Z') }), NOW)).toBe(
      'Your license for acme/widget ends in 5 days (2026-03-06).',
    );
    expect(grantNotice(grant({ expiresAt: new Date('2026-03-01T13:00:00Z') }), NOW)).toBe(
      'Your license for acme/widget ends in 1 day (2026-03-01).',
    );
  });

  it('tells an updates license that earlier versions stay installable', () => {
    expect(grantNotice(grant({ expiresAt: new Date('2026-03-03T12:00:00Z'), endMode: 'updates' }), NOW)).toBe(
      'Your license for acme/widget ends in 2 days (2026-03-03); versions released before then will stay installable.',
    );
  });

  it('explains a frozen license and every refusal', () => {
    expect(grantNotice(grant({ expiresAt: new Date('2026-02-01T00:00:00Z'), endMode: 'updates' }), NOW)).toBe(
      'Your license for acme/widget ended on 2026-02-01: versions released before then stay installable, later ones are not available. Ask the seller to renew it.',
    );
    expect(grantNotice(grant({ status: 'revoked' }), NOW)).toBe('Your license for acme/widget has been revoked.');
  });
});
