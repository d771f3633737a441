import { and, count, countDistinct, eq, gt, gte, isNull, lt, or } from 'drizzle-orm';
import type { DashboardAnalytics } from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import { customers, downloads, grants, packages } from '../../db/schema/index.js';

/** The first instant of the calendar month (UTC) that `now` falls in, and of the next one. */
export function utcMonthBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The Management stat cards (contract/analytics.ts says what each number counts). */
export async function getDashboardAnalytics(ctx: AppContext, sellerId: string): Promise<DashboardAnalytics> {
  const now = ctx.clock.now();
  const month = utcMonthBounds(now);
  // Independent counts: run together rather than one after another.
  const [activePackages, totalDownloads, monthlyUsage, totalUsers] = await Promise.all([
    ctx.db
      .select({ value: count() })
      .from(packages)
      .where(and(eq(packages.ownerId, sellerId), eq(packages.isActive, true))),
    ctx.db
      .select({ value: count() })
      .from(downloads)
      .innerJoin(packages, eq(packages.id, downloads.packageId))
      .where(eq(packages.ownerId, sellerId)),
    ctx.db
      .select({ value: count() })
      .from(downloads)
      .innerJoin(packages, eq(packages.id, downloads.packageId))
      .where(
        and(
          eq(packages.ownerId, sellerId),
          gte(downloads.downloadedAt, month.start),
          lt(downloads.downloadedAt, month.end),
        ),
      ),
    ctx.db
      .select({ value: countDistinct(customers.id) })
      .from(customers)
      .innerJoin(grants, eq(grants.customerId, customers.id))
      .where(
        and(
          eq(customers.sellerId, sellerId),
          eq(grants.status, 'active'),
          or(isNull(grants.expiresAt), gt(grants.expiresAt, now)),
        ),
      ),
  ]);
  return {
    activePackages: Number(activePackages[0]?.value ?? 0),
    totalDownloads: Number(totalDownloads[0]?.value ?? 0),
    monthlyUsage: Number(monthlyUsage[0]?.value ?? 0),
    totalUsers: Number(totalUsers[0]?.value ?? 0),
  };
}
