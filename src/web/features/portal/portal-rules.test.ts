import { describe, expect, it } from 'vitest';
import { downloadsLine, lastUseLine, requireTarget, stateBadge, termsLine } from './portal-rules';

describe('portal license texts', () => {
  it('names each state, with the days left of an expiring license', () => {
    expect(stateBadge({ state: 'active', daysLeft: null }).label).toBe('Active');
    expect(stateBadge({ state: 'expiring', daysLeft: 1 }).label).toBe('Expires in 1 day');
    expect(stateBadge({ state: 'expiring', daysLeft: 3 }).label).toBe('Expires in 3 days');
    expect(stateBadge({ state: 'frozen', daysLeft: null }).label).toBe('Updates ended');
    expect(stateBadge({ state: 'limit-reached', daysLeft: null }).tone).toBe('bad');
  });

  it('says what a frozen license still covers, and when others end', () => {
    expect(termsLine({ state: 'frozen', expiresAt: '2026-02-10T00:00:00Z', lastVersionCovered: 'v1.2.0' })).toBe(
      'Updates ended on Feb 10, 2026. Versions up to v1.2.0 stay installable.',
    );
    expect(termsLine({ state: 'active', expiresAt: null, lastVersionCovered: null })).toBe('No end date.');
    expect(termsLine({ state: 'expired', expiresAt: '2026-02-01T00:00:00Z', lastVersionCovered: null })).toBe(
      'Ended on Feb 1, 2026.',
    );
  });

  it('counts downloads against the limit, and reads last use', () => {
    expect(downloadsLine({ downloadCount: 4, downloadLimit: 10 })).toBe('4 of 10 downloads used');
    expect(downloadsLine({ downloadCount: 1, downloadLimit: null })).toBe('1 download, no limit');
    expect(lastUseLine(null)).toBe('Not used yet');
  });

  it('requires every package of a product’s license, never the product’s name', () => {
    expect(requireTarget({ packageName: 'Suite', packageNames: ['acme/a', 'acme/b', 'acme/c'] })).toBe(
      'acme/a acme/b acme/c',
    );
    expect(requireTarget({ packageName: 'acme/widget', packageNames: ['acme/widget'] })).toBe('acme/widget');
  });
});
