import type { DashboardAnalytics } from '@contract/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './api-client';

export type { DashboardAnalytics };

/** Management's stat cards; shared because package and license changes both move its figures. */
export const dashboardAnalyticsQuery = () =>
  queryOptions({ queryKey: ['/api/analytics/dashboard'], queryFn: getJson<DashboardAnalytics> });

export const useDashboardAnalytics = () => useQuery(dashboardAnalyticsQuery());
