import { describe, expect, it } from 'vitest';
import {
  apiTokenState,
  canCreateToken,
  expiryProblem,
  expiryToIso,
  isUsableToken,
  permissionLabel,
  toDateTimeLocal,
  togglePermission,
} from './api-token-rules';

const now = new Date('2026-03-01T12:00:00Z');

describe('API token badges', () => {
  it('reads Active, Inactive or Expired as the spec defines them', () => {
    expect(apiTokenState({ isActive: true, expiresAt: null }, now)).toBe('active');
    expect(apiTokenState({ isActive: true, expiresAt: '2026-03-02T00:00:00Z' }, now)).toBe('active');
    expect(apiTokenState({ isActive: true, expiresAt: '2026-02-28T00:00:00Z' }, now)).toBe('expired');
    expect(apiTokenState({ isActive: false, expiresAt: '2026-02-28T00:00:00Z' }, now)).toBe('inactive');
  });

  it('calls only active tokens usable', () => {
    expect(isUsableToken({ isActive: true, expiresAt: null }, now)).toBe(true);
    expect(isUsableToken({ isActive: false, expiresAt: null }, now)).toBe(false);
  });

  it('writes a permission as the API does, so that one copied from a badge is accepted (issue 36)', () => {
    expect(permissionLabel('*')).toBe('* (Full Access)');
    expect(permissionLabel('packages:read')).toBe('packages:read');
    expect(permissionLabel('tokens:write')).toBe('tokens:write');
  });
});

describe('the create dialog', () => {
  it('enables Create only with a non-blank name and a permission', () => {
    expect(canCreateToken('', ['packages:read'])).toBe(false);
    expect(canCreateToken('   ', ['packages:read'])).toBe(false);
    expect(canCreateToken('Store', [])).toBe(false);
    expect(canCreateToken('Store', ['packages:read'])).toBe(true);
  });

  it('toggles permissions and keeps the listed order', () => {
    const chosen = togglePermission(togglePermission([], 'analytics:read'), 'packages:read');
    expect(chosen).toEqual(['packages:read', 'analytics:read']);
    expect(togglePermission(chosen, 'packages:read')).toEqual(['analytics:read']);
  });

  it('sends an empty expiration as never, and a local date and time as an instant', () => {
    expect(expiryToIso('')).toBeNull();
    expect(expiryToIso('not a date')).toBeUndefined();
    const local = toDateTimeLocal(new Date(2030, 0, 2, 3, 4));
    expect(local).toBe('2030-01-02T03:04');
    expect(expiryToIso(local)).toBe(new Date(2030, 0, 2, 3, 4).toISOString());
  });

  it('refuses an expiration that is not in the future', () => {
    expect(expiryProblem('', now)).toBeUndefined();
    expect(expiryProblem(toDateTimeLocal(new Date(now.getTime() - 60_000)), now)).toBe(
      'The expiration must be in the future',
    );
    expect(expiryProblem(toDateTimeLocal(new Date(now.getTime() + 3_600_000)), now)).toBeUndefined();
  });
});
