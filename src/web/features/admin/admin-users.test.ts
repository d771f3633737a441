import type { AdminUserListItem } from '@contract/admin';
import { describe, expect, it } from 'vitest';
import { searchUsersByEmail } from './admin-users';

// Cast, so the fixture also fits while the row gains the subscription fields.
const user = (id: string, email: string | null) =>
  ({
    id,
    email,
    userType: 'user',
    createdAt: '2025-01-01T00:00:00.000Z',
    githubUsername: null,
    displayName: null,
    avatarUrl: null,
    selectedTier: null,
    subscriptionStatus: 'trial',
    tier: null,
  }) as AdminUserListItem;

describe('admin user search', () => {
  const users = [user('1', 'Ann@Example.com'), user('2', 'bob@example.org'), user('3', null)];

  it('matches a case-insensitive substring of the e-mail', () => {
    expect(searchUsersByEmail(users, 'ANN@').map((u) => u.id)).toEqual(['1']);
    expect(searchUsersByEmail(users, 'example').map((u) => u.id)).toEqual(['1', '2']);
  });

  it('matches nobody while the box is empty', () => {
    expect(searchUsersByEmail(users, '  ')).toEqual([]);
  });
});
