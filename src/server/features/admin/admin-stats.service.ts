import { count, eq, sql } from 'drizzle-orm';
import type { AdminStats } from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { grants, packages, platformSubscriptions, pricingTiers, users } from '../../db/schema/index.js';

/**
 * The admin Overview figures (spec admin §3).
 * - platformRevenue: monthly recurring revenue in dollars, the sum of the tier price (billed per month) of
 *   every subscription stored as `active`, trials and lapsed plans excluded. With billing off a chosen plan
 *   is activated without a charge and still counts: the figure says what the platform's plans are worth per
 *   month, not what a payment provider collected. Prices are summed as they are, whatever their currency.
 * - totalSales: license purchases (grants of kind `purchase`); 0 until sales exist.
 */
export async function getAdminStats(ctx: AppContext): Promise<AdminStats> {
  const [[userCount], [packageCount], [revenue], [sales]] = await Promise.all([
    ctx.db.select({ total: count() }).from(users),
    ctx.db.select({ total: count() }).from(packages).where(eq(packages.isActive, true)),
    ctx.db
      .select({ cents: sql<string | null>`sum(${pricingTiers.priceCents})` })
      .from(platformSubscriptions)
      .innerJoin(pricingTiers, eq(pricingTiers.id, platformSubscriptions.tierId))
      .where(eq(platformSubscriptions.status, 'active')),
    ctx.db.select({ total: count() }).from(grants).where(eq(grants.kind, 'purchase')),
  ]);
  return {
    totalUsers: userCount?.total ?? 0,
    activePackages: packageCount?.total ?? 0,
    platformRevenue: Math.round(Number(revenue?.cents ?? 0)) / 100,
    totalSales: sales?.total ?? 0,
  };
}
