import type { AuthUser } from '../../contract/auth.js';
import { effectiveRole, permissionsOf } from './permissions.js';
import { type Account, sessionPrincipal } from './principal.js';
import type { RequestAuth } from './session.js';

// The signed-in user as every route that answers with one presents it (sign-in, /api/auth/user,
// impersonation, debug); it sits beside the session so that no feature reaches into another for it.

/** What the web app may know about a user: never the code-host token, only whether one is stored. */
export function presentAuthUser(user: Account, impersonator?: Account): AuthUser {
  return {
    id: user.id,
    userType: user.userType,
    email: user.email,
    githubUsername: user.githubUsername,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl,
    slug: user.slug,
    selectedTier: user.selectedTier,
    hasAccessToken: Boolean(user.githubAccessTokenEncrypted),
    isImpersonating: Boolean(impersonator),
    ...(impersonator ? { impersonator: { id: impersonator.id, email: impersonator.email } } : {}),
  };
}

/** How an organisation (a seller account) is named to its members: its display name, code-host name, else its slug. */
export function organizationName(organization: Pick<Account, 'displayName' | 'githubUsername' | 'slug'>): string {
  return organization.displayName?.trim() || organization.githubUsername?.trim() || organization.slug;
}

/** GET /api/auth/user: the account, the organisation the session works in and what the role may do there (issue 33). */
export function presentSession(auth: RequestAuth): AuthUser {
  // Built from the session presented, which may be one the request has just started (no guard set its principal).
  const principal = sessionPrincipal(auth);
  const role = effectiveRole(principal);
  return {
    ...presentAuthUser(auth.user, auth.impersonator),
    ...(role
      ? {
          organization: {
            id: auth.user.id,
            name: organizationName(auth.user),
            slug: auth.user.slug,
            role,
          },
        }
      : {}),
    permissions: [...permissionsOf(principal)],
  };
}
