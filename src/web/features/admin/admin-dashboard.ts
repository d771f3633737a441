import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../lib/api-client';
import { RECENT_USERS_SHOWN } from '../../lib/constants';
import type { AdminUserListItem } from './admin-users';

/** GET /api/admin/stats (spec admin §3): platformRevenue is in dollars. */
export type AdminStats = { totalUsers: number; activePackages: number; platformRevenue: number; totalSales: number };

export const adminStatsQuery = () => queryOptions({ queryKey: ['/api/admin/stats'], queryFn: getJson<AdminStats> });
export const useAdminStats = () => useQuery(adminStatsQuery());

/** Dollars with two decimals ("$1,234.50"); a missing figure reads $0.00. */
export function formatRevenue(dollars: number | undefined): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(
    Number(dollars) || 0,
  );
}

/** The Recent Users card shows the first five users of the list as the server orders it. */
export const recentUsers = (users: readonly AdminUserListItem[] | undefined): AdminUserListItem[] =>
  (users ?? []).slice(0, RECENT_USERS_SHOWN);
