import { z } from 'zod';

/**
 * GET /api/analytics/dashboard, the four stat cards of Management (spec seller-app §2, §3).
 * - activePackages: the seller's packages that are active.
 * - totalDownloads: every recorded dist download of the seller's packages.
 * - monthlyUsage: those downloads in the current calendar month (UTC).
 * - totalUsers: license holders with at least one grant that is active and not expired.
 */
export const dashboardAnalytics = z.object({
  activePackages: z.number().int(),
  totalDownloads: z.number().int(),
  monthlyUsage: z.number().int(),
  totalUsers: z.number().int(),
});
export type DashboardAnalytics = z.infer<typeof dashboardAnalytics>;
