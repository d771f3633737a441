import type { AdminUserListItem } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { computeSubscriptionStatus } from '../subscriptions/subscriptions.service.js';
import { getUserById, type User } from '../users/users.service.js';
import * as repository from './admin.repository.js';

/**
 * All accounts for the Users tab; sellers are 'user' there (spec admin §3). One query (users with their
 * subscription record), then each status computed by the same pure rule the seller's own status call uses.
 */
export async function listUsersForAdmin(ctx: AppContext): Promise<AdminUserListItem[]> {
  const rows = await repository.selectAccountsWithSubscriptions(ctx.db);
  const now = ctx.clock.now();
  return rows.map(({ user, subscription }) => {
    const status = computeSubscriptionStatus(user, subscription ?? undefined, now);
    return presentUser(ctx, user, status.subscriptionStatus, status.tier, status.selectedTier);
  });
}

function presentUser(
  ctx: AppContext,
  user: User,
  subscriptionStatus: AdminUserListItem['subscriptionStatus'],
  tier: string | null,
  selectedTier: string | null,
): AdminUserListItem {
  return {
    id: user.id,
    email: user.email,
    userType: user.userType === 'admin' ? 'admin' : 'user',
    createdAt: user.createdAt.toISOString(),
    githubUsername: user.githubUsername,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl ?? codeHostAvatar(ctx, user),
    subscriptionStatus,
    tier,
    selectedTier,
  };
}

/** The user an admin may take the place of; the caller starts the session that remembers the admin. */
export async function chooseImpersonationTarget(ctx: AppContext, admin: User, userId: string): Promise<User> {
  const target = await getUserById(ctx, userId);
  if (target.id === admin.id) throw new AppError('BAD_REQUEST', 'You cannot impersonate yourself.');
  // Who looked at whose account is worth keeping in the log (ids only).
  ctx.log.info({ adminId: admin.id, userId: target.id }, 'impersonation started');
  return target;
}

/**
 * The admin to return to when they stop viewing as `viewedAs`. The route's adminOnly guard has vouched for `admin`
 * (the impersonator, or the signed-in admin when nobody is impersonated).
 */
export function impersonatingAdmin(ctx: AppContext, viewedAs: User, admin: User): User {
  if (admin.id === viewedAs.id) throw new AppError('BAD_REQUEST', 'You are not impersonating anyone.');
  ctx.log.info({ adminId: admin.id, userId: viewedAs.id }, 'impersonation stopped');
  return admin;
}

// GitHub serves any user's avatar at {web}/{login}.png; only meaningful where GitHub is the code host.
function codeHostAvatar(ctx: AppContext, user: User): string | null {
  if (!user.githubUsername || !ctx.config.github) return null;
  return `${ctx.config.github.webUrl}/${encodeURIComponent(user.githubUsername)}.png`;
}
