import type { ReactNode } from 'react';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { hasNothingLoaded } from '../../lib/query-state';
import type { AdminUserListItem, useAdminUsers } from './admin-users';

/** Every user, once loaded, rendered by `children`; while loading, or when the load failed, the line saying so. */
export function AdminUsersStates({
  users,
  children,
}: {
  users: ReturnType<typeof useAdminUsers>;
  children: (rows: AdminUserListItem[]) => ReactNode;
}) {
  if (users.isLoading) return <LoadingLine className="text-sm">Loading users...</LoadingLine>;
  if (hasNothingLoaded(users)) return <LoadError error={users.error} fallback="Failed to load users" />;
  return children(users.data ?? []);
}
