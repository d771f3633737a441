import type { AuthUser } from '../../contract/auth';
import { forbiddenMessage, isOrganizationRole, isTeamPermission, type TeamPermission } from '../../contract/team-roles';
import { useCurrentUser } from './current-user';

/**
 * What the signed-in person's role may do in the organisation the session works in (issue 33). The server enforces
 * every permission; the screens hide or disable what the role lacks, naming the same sentence as the server's 403.
 * A user the server answers without `permissions` (an admin's own account) may do everything.
 */
export function userCan(user: AuthUser | null | undefined, permission: TeamPermission): boolean {
  if (!user?.permissions) return true;
  return user.permissions.some((granted) => isTeamPermission(granted) && granted === permission);
}

/** Why the action is unavailable ("Your role (support) cannot change packages."), or undefined when it is allowed. */
export function forbiddenReason(user: AuthUser | null | undefined, permission: TeamPermission): string | undefined {
  if (userCan(user, permission)) return undefined;
  const role = user?.organization?.role;
  return forbiddenMessage(isOrganizationRole(role) ? role : 'viewer', permission);
}

export type Permission = { allowed: boolean; reason: string | undefined };

/** `allowed` and, when it is not, the reason to show as the disabled control's title. */
export function usePermission(permission: TeamPermission): Permission {
  const { data: user } = useCurrentUser();
  const reason = forbiddenReason(user, permission);
  return { allowed: reason === undefined, reason };
}
