import type { AuthUser } from '@contract/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { CURRENT_USER_STALE_MS } from './constants';

export type { AuthUser };

export const CURRENT_USER_PATH = '/api/auth/user';

/** The signed-in user, or null when signed out (the server answers 200 with null) or cannot say (spec seller-app §7). */
export async function fetchCurrentUser(): Promise<AuthUser | null> {
  try {
    return (await apiRequest<AuthUser | null>('GET', CURRENT_USER_PATH)) ?? null;
  } catch {
    return null;
  }
}

export const currentUserQuery = () =>
  queryOptions({ queryKey: [CURRENT_USER_PATH], queryFn: fetchCurrentUser, staleTime: CURRENT_USER_STALE_MS });

/** `data` is the user, null when signed out, undefined while the first answer is awaited. */
export const useCurrentUser = () => useQuery(currentUserQuery());

export const isAdmin = (user: AuthUser | null | undefined): boolean => user?.userType === 'admin';

/**
 * Whether /admin opens: for an admin, and for an admin viewing the app as someone else (the server answers the
 * admin endpoints to the admin behind an impersonation), so that the Users tab can stop it.
 */
export const canOpenAdmin = (user: AuthUser | null | undefined): boolean =>
  isAdmin(user) || Boolean(user?.impersonator);

/** What the header shows for a user: the code-host username, else the local part of the e-mail. */
export function displayUsername(user: Pick<AuthUser, 'githubUsername' | 'email' | 'displayName'>): string {
  if (user.githubUsername) return user.githubUsername;
  if (user.email) return user.email.split('@')[0] ?? user.email;
  return user.displayName ?? 'Account';
}
