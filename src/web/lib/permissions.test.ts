import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../contract/auth';
import { ROLE_PERMISSIONS } from '../../contract/team-roles';
import { forbiddenReason, userCan } from './permissions';

const user = (overrides: Partial<AuthUser> = {}): AuthUser => ({
  id: 'u1',
  userType: 'seller',
  email: 'someone@example.com',
  githubUsername: null,
  displayName: null,
  avatarUrl: null,
  slug: 'acme',
  selectedTier: null,
  hasAccessToken: false,
  isImpersonating: false,
  ...overrides,
});

const member = (role: 'owner' | 'admin' | 'developer' | 'support' | 'viewer') =>
  user({
    organization: { id: 'o1', name: 'Acme', slug: 'acme', role },
    permissions: [...ROLE_PERMISSIONS[role]],
  });

describe('what a role may do on screen', () => {
  it('lets support change licenses but not packages, with the server sentence as the reason', () => {
    expect(userCan(member('support'), 'customers:write')).toBe(true);
    expect(forbiddenReason(member('support'), 'customers:write')).toBeUndefined();
    expect(userCan(member('support'), 'packages:write')).toBe(false);
    expect(forbiddenReason(member('support'), 'packages:write')).toBe('Your role (support) cannot change packages.');
  });

  it('keeps the plan from a developer and lets an owner do everything', () => {
    expect(forbiddenReason(member('developer'), 'plan:manage')).toBe(
      'Your role (developer) cannot manage the plan and billing.',
    );
    expect(userCan(member('owner'), 'plan:manage')).toBe(true);
  });

  it('lets a user answered without permissions (an admin own account) do everything', () => {
    expect(userCan(user({ userType: 'admin' }), 'organization:manage')).toBe(true);
    expect(forbiddenReason(user(), 'team:manage')).toBeUndefined();
  });

  it('ignores permission names it does not know', () => {
    expect(userCan(user({ permissions: ['packages:everything'] }), 'packages:write')).toBe(false);
  });
});
