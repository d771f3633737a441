import type { AdminStats } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { getAdminSalesFigures } from '../sales/sales-figures.service.js';
import * as repository from './admin.repository.js';

/**
 * The admin Overview figures (spec admin §3). The money comes from sales (issue 11): platformRevenue counts what
 * the platform actually collected (fees on paid sales plus paid platform invoices), never the list prices of plans;
 * with billing off it is 0 and revenueNote says why. totalSales counts paid sales (test sales while billing is off).
 */
export async function getAdminStats(ctx: AppContext): Promise<AdminStats> {
  const [totalUsers, activePackages, money] = await Promise.all([
    repository.countAccounts(ctx.db),
    repository.countActivePackages(ctx.db),
    getAdminSalesFigures(ctx),
  ]);
  return {
    totalUsers,
    activePackages,
    ...money,
  };
}
