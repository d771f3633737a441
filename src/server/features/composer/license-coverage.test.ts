import { describe, expect, it } from 'vitest';
import { OPEN_GRANT_FACTS } from '../../../../test/support/grant-facts.js';
import { parseLicenseTerms } from '../../lib/composer-versions/license-terms.js';
import type { CoveringGrant, PackageAccess } from './access-view.repository.js';
import {
  coverageKey,
  decidePackage,
  grantForVersion,
  isVersionCovered,
  newerVersionNotice,
  outsideRangeMessage,
} from './license-coverage.js';

// The union of a holder's licenses for one package, decided at a moment: which versions it shows, which license a
// download is counted against, and what it tells the holder. The HTTP behaviour is in license-terms.int.test.ts.

const NOW = new Date('2026-03-01T12:00:00Z');
const DAY_MS = 86_400_000;

function grant(id: string, values: Partial<CoveringGrant> & { constraint?: string | null } = {}): CoveringGrant {
  const { constraint = null, ...rest } = values;
  return {
    grantId: id,
    packageId: 'package-1',
    packageName: 'acme/lib',
    ...OPEN_GRANT_FACTS,
    metadataUpdatedAt: NOW,
    grantUpdatedAt: NOW,
    coverageUpdatedAt: NOW,
    productId: null,
    productName: null,
    terms: parseLicenseTerms(constraint, rest.terms?.minimumStability ?? 'dev'),
    ...rest,
  };
}

const access = (...grants: CoveringGrant[]): PackageAccess => ({
  packageId: 'package-1',
  packageName: 'acme/lib',
  grants,
});

const tag = (normalizedVersion: string, publishedAt = NOW.getTime() - 30 * DAY_MS) => ({
  normalizedVersion,
  kind: 'tag' as const,
  publishedAt,
});

function allowedOf(...grants: CoveringGrant[]) {
  const decision = decidePackage(access(...grants), NOW);
  if (decision.kind !== 'allowed') throw new Error('expected an allowed decision');
  return decision;
}

describe('the union of a holder’s licenses for a package', () => {
  it('covers a version when any license allowed now covers it', () => {
    const { allowed } = allowedOf(grant('a', { constraint: '^1.0' }), grant('b', { constraint: '^3.0' }));
    expect(isVersionCovered(allowed, tag('1.2.0.0'))).toBe(true);
    expect(isVersionCovered(allowed, tag('3.0.0.0'))).toBe(true);
    expect(isVersionCovered(allowed, tag('2.0.0.0'))).toBe(false);
  });

  it('leaves out a revoked license, and says why only when none allows', () => {
    const mixed = decidePackage(access(grant('a', { status: 'revoked' }), grant('b', { constraint: '^1.0' })), NOW);
    expect(mixed.kind).toBe('allowed');
    const none = decidePackage(access(grant('a', { status: 'revoked' }), grant('b', { status: 'revoked' })), NOW);
    expect(none).toEqual({ kind: 'denied', messages: ['Your license for acme/lib has been revoked.'] });
  });

  it('keeps a frozen license to tags published before its end', () => {
    const end = new Date(NOW.getTime() - DAY_MS);
    const { allowed } = allowedOf(grant('a', { expiresAt: end, endMode: 'updates' }));
    expect(isVersionCovered(allowed, tag('1.0.0.0', end.getTime() - 1))).toBe(true);
    expect(isVersionCovered(allowed, tag('1.1.0.0', end.getTime()))).toBe(false);
    expect(isVersionCovered(allowed, { normalizedVersion: 'dev-main', kind: 'branch', publishedAt: 0 })).toBe(false);
  });

  it('counts a download against a license without a limit first, then in the view’s order', () => {
    const limited = grant('limited', { downloadLimit: 10 });
    const open = grant('open', { productId: 'product-1' });
    const { allowed } = allowedOf(limited, open);
    expect(grantForVersion(allowed, tag('1.0.0.0'))?.grant.grantId).toBe('open');
    const ranged = allowedOf(
      grant('limited', { downloadLimit: 10, constraint: '^1.0' }),
      grant('open', { constraint: '^2.0' }),
    );
    expect(grantForVersion(ranged.allowed, tag('1.0.0.0'))?.grant.grantId).toBe('limited');
    expect(grantForVersion(ranged.allowed, tag('9.0.0.0'))).toBeUndefined();
  });

  it('shares one rendering among holders whose licenses cover everything', () => {
    expect(coverageKey(allowedOf(grant('a'), grant('b', { constraint: '^1.0' })).allowed)).toBe('');
    const ranged = coverageKey(allowedOf(grant('a', { constraint: '^1.0' })).allowed);
    expect(ranged).not.toBe('');
    expect(coverageKey(allowedOf(grant('b', { constraint: '^1.0' })).allowed)).toBe(ranged);
  });

  it('tells of the newest stable release outside the range, and of nothing when the range reaches it', () => {
    const tags = [
      { version: 'v2.1.0-beta1', normalizedVersion: '2.1.0.0-beta1' },
      { version: 'v2.0.0', normalizedVersion: '2.0.0.0' },
      { version: 'v1.1.0', normalizedVersion: '1.1.0.0' },
    ];
    const { allowed } = allowedOf(grant('a', { constraint: '^1.0' }));
    expect(newerVersionNotice('acme/lib', tags, allowed, 'https://acme.example/portal')).toBe(
      'acme/lib v2.0.0 is available, but your license covers ^1.0. Composer installs the newest version your license covers; to use v2.0.0, upgrade your license at https://acme.example/portal',
    );
    expect(newerVersionNotice('acme/lib', tags, allowedOf(grant('b')).allowed, 'x')).toBeUndefined();
    expect(outsideRangeMessage('acme/lib', 'v2.0.0', allowed, 'https://acme.example/portal')).toContain(
      'Your license for acme/lib covers ^1.0; v2.0.0 is outside it.',
    );
  });
});
