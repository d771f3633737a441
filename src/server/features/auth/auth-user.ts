import type { AuthUser } from '../../../contract/auth.js';
import type { RequestAuth } from '../../http/session.js';
import type { User } from '../users/users.service.js';

/** What the web app may know about a user: never the code-host token, only whether one is stored. */
export function presentAuthUser(user: User, impersonator?: User): AuthUser {
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

export function presentSession(auth: RequestAuth): AuthUser {
  return presentAuthUser(auth.user, auth.impersonator);
}
