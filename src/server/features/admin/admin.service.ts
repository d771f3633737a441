import type { AdminUserListItem } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { isAdmin } from '../../http/guards.js';
import type { RequestAuth } from '../../http/session.js';
import { getUserById, listUsers, type User } from '../users/users.service.js';

/** All accounts for the Users tab; sellers are 'user' there (spec admin §3). */
export async function listUsersForAdmin(ctx: AppContext): Promise<AdminUserListItem[]> {
  const rows = await listUsers(ctx);
  return rows.map((user) => ({
    id: user.id,
    email: user.email,
    userType: user.userType === 'admin' ? 'admin' : 'user',
    createdAt: user.createdAt.toISOString(),
    githubUsername: user.githubUsername,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl ?? codeHostAvatar(ctx, user),
    selectedTier: user.selectedTier,
  }));
}

/** The user an admin may take the place of; the caller starts the session that remembers the admin. */
export async function chooseImpersonationTarget(ctx: AppContext, admin: User, userId: string): Promise<User> {
  const target = await getUserById(ctx, userId);
  if (target.id === admin.id) throw new AppError('BAD_REQUEST', 'You cannot impersonate yourself.');
  // Who looked at whose account is worth keeping in the log (ids only).
  ctx.log.info({ adminId: admin.id, userId: target.id }, 'impersonation started');
  return target;
}

/** The admin to return to when an impersonation ends. */
export function impersonatingAdmin(ctx: AppContext, auth: RequestAuth): User {
  if (!auth.impersonator) throw new AppError('BAD_REQUEST', 'You are not impersonating anyone.');
  if (!isAdmin(auth.impersonator)) {
    throw new AppError('FORBIDDEN', 'This action requires an administrator account.');
  }
  ctx.log.info({ adminId: auth.impersonator.id, userId: auth.user.id }, 'impersonation stopped');
  return auth.impersonator;
}

// GitHub serves any user's avatar at {web}/{login}.png; only meaningful where GitHub is the code host.
function codeHostAvatar(ctx: AppContext, user: User): string | null {
  if (!user.githubUsername || !ctx.config.github) return null;
  return `${ctx.config.github.webUrl}/${encodeURIComponent(user.githubUsername)}.png`;
}
