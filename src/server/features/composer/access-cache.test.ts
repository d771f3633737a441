import { describe, expect, it } from 'vitest';
import { OPEN_GRANT_FACTS } from '../../../../test/support/grant-facts.js';
import { parseLicenseTerms } from '../../lib/composer-versions/license-terms.js';
import { ComposerAccessCache } from './access-cache.js';
import type { CoveringGrant, PackageAccess, TokenView } from './access-view.repository.js';
import type { MetadataVersionRow } from './composer.repository.js';

// What the warm path holds and when it lets go of it; the HTTP behaviour is in warm-path.int.test.ts.

function view(customerId: string, sellerId: string, packageNames: string[] = ['acme/widget']): TokenView {
  const packages = new Map<string, PackageAccess>();
  for (const packageName of packageNames) {
    const grant: CoveringGrant = {
      grantId: `grant-${customerId}-${packageName}`,
      packageId: `package-${packageName}`,
      packageName,
      ...OPEN_GRANT_FACTS,
      metadataUpdatedAt: new Date('2026-02-01T00:00:00Z'),
      grantUpdatedAt: new Date('2026-02-01T00:00:00Z'),
      coverageUpdatedAt: new Date('2026-02-01T00:00:00Z'),
      productId: null,
      productName: null,
      terms: parseLicenseTerms(null),
    };
    packages.set(packageName, { packageId: grant.packageId, packageName, grants: [grant] });
  }
  return {
    customerId,
    sellerId,
    sellerSlug: 'acme',
    seller: { userType: 'seller', subscription: undefined },
    token: {
      tokenId: `token-${customerId}`,
      kind: 'developer',
      expiresAt: null,
      revokedAt: null,
      replacedById: null,
      rotatedAt: null,
      leakedAt: null,
      lastUsedAt: null,
    },
    packages,
    coverageUpdatedAt: new Date('2026-02-01T00:00:00Z'),
  };
}

const versions: MetadataVersionRow[] = [
  {
    version: 'v1.0.0',
    normalizedVersion: '1.0.0.0',
    commit: 'a'.repeat(40),
    publishedAt: Date.parse('2026-01-10T10:00:00Z'),
    time: '2026-01-10T10:00:00+00:00',
    composerJson: { require: { php: '>=8.1' } },
    distSha1: null,
  },
];

function liveCache(maxBytes = 1024 * 1024): ComposerAccessCache {
  const cache = new ComposerAccessCache(maxBytes);
  cache.handleFeedLive();
  return cache;
}

describe('ComposerAccessCache', () => {
  it('holds nothing before its change feed listens, and nothing while the feed is down', () => {
    const cache = new ComposerAccessCache(1024 * 1024);
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    expect(cache.findView('hash-1')).toBeUndefined();

    cache.handleFeedLive();
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    expect(cache.findView('hash-1')).toBeDefined();
    cache.handleFeedLost();
    expect(cache.findView('hash-1')).toBeUndefined();
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    expect(cache.findView('hash-1')).toBeUndefined();
  });

  it('starts from nothing when the feed listens again', () => {
    const cache = liveCache();
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    cache.handleFeedLive();
    expect(cache.findView('hash-1')).toBeUndefined();
  });

  it('drops the views of the customer, of the seller, and the versions of the package an announcement names', () => {
    const cache = liveCache();
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    cache.keepView(cache.ticket(), 'hash-2', view('c2', 's1'));
    cache.keepView(cache.ticket(), 'hash-3', view('c3', 's2'));
    cache.keepVersions(cache.ticket(), 'p1', 'tag', versions);

    cache.handleChange('c:c1');
    expect(cache.findView('hash-1')).toBeUndefined();
    expect(cache.findView('hash-2')).toBeDefined();

    cache.handleChange('s:s1');
    expect(cache.findView('hash-2')).toBeUndefined();
    expect(cache.findView('hash-3')).toBeDefined();

    expect(cache.findVersions('p1', 'tag')).toBeDefined();
    cache.handleChange('p:p1');
    expect(cache.findVersions('p1', 'tag')).toBeUndefined();

    cache.handleChange('*');
    expect(cache.findView('hash-3')).toBeUndefined();
  });

  it('drops every named token of a holder when the holder is announced', () => {
    const cache = liveCache();
    cache.keepView(cache.ticket(), 'laptop', view('c1', 's1'));
    cache.keepView(cache.ticket(), 'ci', view('c1', 's1'));
    cache.keepView(cache.ticket(), 'other', view('c2', 's1'));
    // One token's view dropped by the LRU or replaced leaves the holder's other keys in place.
    cache.keepView(cache.ticket(), 'ci', view('c1', 's1'));

    cache.handleChange('c:c1');
    expect(cache.findView('laptop')).toBeUndefined();
    expect(cache.findView('ci')).toBeUndefined();
    expect(cache.findView('other')).toBeDefined();
  });

  it('does not keep a read that began before a change was announced', () => {
    const cache = liveCache();
    const ticket = cache.ticket();
    cache.handleChange('c:someone-else');
    cache.keepView(ticket, 'hash-1', view('c1', 's1'));
    expect(cache.findView('hash-1')).toBeUndefined();
    const stale = cache.keepVersions(ticket, 'p1', 'tag', versions);
    expect(stale.versions).toBe(versions); // still answers the request that read it
    expect(cache.findVersions('p1', 'tag')).toBeUndefined();
  });

  it('renders a body once while its versions are held, plain and gzipped', () => {
    const cache = liveCache();
    const entry = cache.keepVersions(cache.ticket(), 'p1', 'tag', versions);
    let renders = 0;
    const render = () => {
      renders++;
      return '{"packages":{}}';
    };
    const first = cache.body(entry, 'http://acme ', render);
    const second = cache.body(entry, 'http://acme ', render);
    expect(renders).toBe(1);
    expect(second.bytes.toString()).toBe('{"packages":{}}');
    expect(first.gzipped().length).toBeGreaterThan(0);
  });

  it('stays within its byte bound however many tokens it is given', () => {
    const cache = liveCache(64 * 1024);
    for (let index = 0; index < 5_000; index++) {
      cache.keepView(cache.ticket(), `hash-${index}`, view(`c${index}`, `s${index % 7}`, ['acme/a', 'acme/b']));
    }
    expect(cache.heldBytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.findView('hash-4999')).toBeDefined();
    expect(cache.findView('hash-0')).toBeUndefined();
    // The indexes forget evicted views: announcing their customers drops nothing else.
    cache.handleChange('c:c0');
    expect(cache.findView('hash-4999')).toBeDefined();
  });

  it('holds nothing when its bound is 0', () => {
    const cache = liveCache(0);
    cache.keepView(cache.ticket(), 'hash-1', view('c1', 's1'));
    expect(cache.findView('hash-1')).toBeUndefined();
  });
});
