import type { AnalyticsBucket, AnalyticsPeriod } from '@contract/analytics';
import { useDashboardAnalytics } from '../../lib/analytics';
import { formatDate } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { CsvButton, DataTable, Empty, Loading, number, Stat, TableCard } from './analytics-card-parts';
import { bucketLabel, DownloadsChart } from './analytics-charts';
import { downloadSeriesPath, useDownloadSeries } from './analytics-hooks';

/** Downloads over the period, per day or week, with the seller's totals above the chart. */
export function DownloadsCard({
  filter,
}: {
  filter: { period: AnalyticsPeriod; bucket: AnalyticsBucket; packageId?: string; holder?: string };
}) {
  const seriesQuery = useDownloadSeries(filter);
  const { data: series, isLoading } = seriesQuery;
  const { data: dashboard } = useDashboardAnalytics();
  const jsonPath = downloadSeriesPath(filter);
  return (
    <TableCard
      testId="downloads-card"
      title="Downloads over time"
      description={
        series ? `${formatDate(`${series.from}T00:00:00Z`)} to ${formatDate(`${series.to}T00:00:00Z`)}` : ' '
      }
      action={<CsvButton table="downloads" jsonPath={jsonPath} />}
    >
      <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="In this period" value={series?.total} testId="stat-period" />
        <Stat label="Total downloads" value={dashboard?.totalDownloads} testId="stat-total" />
        <Stat label="This month" value={dashboard?.monthlyUsage} testId="stat-month" />
        <Stat label="Active license holders" value={dashboard?.totalUsers} testId="stat-users" />
      </div>
      {isLoading ? (
        <Loading />
      ) : hasNothingLoaded(seriesQuery) || !series ? (
        <Empty>Downloads could not be loaded.</Empty>
      ) : (
        <>
          <DownloadsChart series={series} />
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer text-muted-foreground">Show as a table</summary>
            <div className="mt-2 max-h-72 overflow-y-auto">
              <DataTable
                headers={[filter.bucket === 'week' ? 'Week' : 'Day', 'Downloads']}
                rows={series.points.map((point) => [
                  bucketLabel(point.start, series.bucket),
                  <span key="n" data-testid="point-downloads" data-start={point.start}>
                    {number(point.downloads)}
                  </span>,
                ])}
                total={series.points.length}
              />
            </div>
          </details>
        </>
      )}
    </TableCard>
  );
}
