import { count, eq } from 'drizzle-orm';
import type { AdminStats } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { packages, users } from '../../db/schema/index.js';
import { getAdminSalesFigures } from '../sales/sales-figures.service.js';

/**
 * The admin Overview figures (spec admin §3). The money comes from sales (issue 11): platformRevenue counts what
 * the platform actually collected (fees on paid sales plus paid platform invoices), never the list prices of plans;
 * with billing off it is 0 and revenueNote says why. totalSales counts paid sales (test sales while billing is off).
 */
export async function getAdminStats(ctx: AppContext): Promise<AdminStats> {
  const [[userCount], [packageCount], money] = await Promise.all([
    ctx.db.select({ total: count() }).from(users),
    ctx.db.select({ total: count() }).from(packages).where(eq(packages.isActive, true)),
    getAdminSalesFigures(ctx),
  ]);
  return {
    totalUsers: userCount?.total ?? 0,
    activePackages: packageCount?.total ?? 0,
    ...money,
  };
}
