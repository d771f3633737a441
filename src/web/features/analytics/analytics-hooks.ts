import type {
  AnalyticsBucket,
  AnalyticsExport,
  AnalyticsPeriod,
  DownloadSeries,
  SharingSignal,
  StaleHolders,
  TopHolders,
  VersionAdoption,
} from '@contract/analytics';
import type { Package } from '@contract/packages';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../lib/api-client';

// The Analytics page's queries. Each key is the URL it fetches, so a CSV link with the same query shows the same rows.

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(name, `${value}`);
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export type SeriesFilter = { period: AnalyticsPeriod; bucket: AnalyticsBucket; packageId?: string; holder?: string };

export const downloadSeriesPath = (filter: SeriesFilter) => withQuery('/api/analytics/downloads', filter);
export const versionsPath = (packageId?: string) => withQuery('/api/analytics/versions', { packageId });
export const topHoldersPath = (period: AnalyticsPeriod) => withQuery('/api/analytics/top-holders', { period });
export const staleHoldersPath = (months: number, packageId?: string) =>
  withQuery('/api/analytics/stale-holders', { months, packageId });
export const sharingPath = (period: AnalyticsPeriod) => withQuery('/api/analytics/sharing', { period });

/** The CSV download of a table, with the query its JSON was asked with. */
export function exportPath(table: AnalyticsExport, jsonPath: string): string {
  const query = jsonPath.includes('?') ? jsonPath.slice(jsonPath.indexOf('?')) : '';
  return `/api/analytics/export/${table}${query}`;
}

export const useDownloadSeries = (filter: SeriesFilter) =>
  useQuery(
    queryOptions({
      queryKey: [downloadSeriesPath(filter)],
      queryFn: getJson<DownloadSeries>,
      placeholderData: (previous) => previous,
    }),
  );
export const useVersionAdoption = (packageId?: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: [versionsPath(packageId)], queryFn: getJson<VersionAdoption>, enabled }));
export const useTopHolders = (period: AnalyticsPeriod) =>
  useQuery(queryOptions({ queryKey: [topHoldersPath(period)], queryFn: getJson<TopHolders> }));
export const useStaleHolders = (months: number, packageId?: string) =>
  useQuery(queryOptions({ queryKey: [staleHoldersPath(months, packageId)], queryFn: getJson<StaleHolders> }));
export const useSharingSignal = (period: AnalyticsPeriod) =>
  useQuery(queryOptions({ queryKey: [sharingPath(period)], queryFn: getJson<SharingSignal> }));

/** The seller's packages for the package filter (the same query, and cache entry, as Management's). */
export const useSellerPackages = () =>
  useQuery(queryOptions({ queryKey: ['/api/repositories'], queryFn: getJson<Package[]> }));
