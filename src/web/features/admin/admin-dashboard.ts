import type { AdminSalesFigures } from '@contract/sales';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../lib/api-client';
import { RECENT_USERS_SHOWN } from '../../lib/constants';
import type { AdminUserListItem } from './admin-users';

/**
 * GET /api/admin/stats (spec admin §3): platformRevenue is in dollars; the selling figures (issue 11) say what it is
 * made of, the gross of the sales and the latest transactions.
 */
export type AdminStats = {
  totalUsers: number;
  activePackages: number;
  platformRevenue: number;
  totalSales: number;
} & Partial<AdminSalesFigures> & {
    /** Fees of paid test sales (billing off): what the platform would have kept; never counted as revenue. */
    testFeesCents?: number;
  };

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

/**
 * What Platform Revenue is made of: with billing off, the server's note (no money moved) and what test sales would
 * have paid; otherwise collected fees and paid platform invoices.
 */
export function revenueNote(stats: AdminStats): string | undefined {
  if (stats.billingOff) {
    const testFees = stats.testFeesCents
      ? `Test sales: ${formatRevenue(stats.testFeesCents / 100)} in fees, not collected.`
      : '';
    const note = stats.revenueNote ?? 'Billing is off';
    return [note.endsWith('.') ? note : `${note}.`, testFees].filter(Boolean).join(' ');
  }
  if (stats.feesCents === undefined || stats.invoicesCents === undefined) return undefined;
  return `Sale fees ${formatRevenue(stats.feesCents / 100)} · plan invoices ${formatRevenue(stats.invoicesCents / 100)}`;
}
