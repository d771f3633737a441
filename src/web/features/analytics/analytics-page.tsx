import {
  ANALYTICS_PERIODS,
  type AnalyticsBucket,
  type AnalyticsExport,
  type AnalyticsPeriod,
  LIST_ROWS_DEFAULT,
  LIST_ROWS_MAX,
  STALE_MONTH_CHOICES,
} from '@contract/analytics';
import { Download, Loader2, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { NativeSelect } from '../../components/ui/native-select';
import { Tooltip } from '../../components/ui/tooltip';
import { useDashboardAnalytics } from '../../lib/analytics';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { bucketLabel, DownloadsChart, VersionsChart } from './analytics-charts';
import {
  downloadSeriesPath,
  exportPath,
  sharingPath,
  staleHoldersPath,
  topHoldersPath,
  useDownloadSeries,
  useSellerPackages,
  useSharingSignal,
  useStaleHolders,
  useTopHolders,
  useVersionAdoption,
  versionsPath,
} from './analytics-hooks';

/** Rows a table shows on the page; the CSV export holds up to LIST_ROWS_MAX. */
const TABLE_ROWS = 20;
const number = (value: number) => value.toLocaleString('en-US');

/** /analytics: the seller's downloads, versions and license holders (issue 14). Days are UTC. */
export function AnalyticsPage() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30');
  const [bucket, setBucket] = useState<AnalyticsBucket>('day');
  const [packageId, setPackageId] = useState('');
  const [holder, setHolder] = useState<string | undefined>();
  const { data: packages } = useSellerPackages();

  return (
    <div className="container mx-auto space-y-6 px-4 py-8 sm:py-10">
      <header className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Analytics</h1>
        <p className="text-muted-foreground">
          Downloads of your packages, the versions your license holders use, and who may need a nudge. Days are UTC.
        </p>
      </header>

      <section aria-label="Filters" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <Filter label="Period">
          <NativeSelect
            aria-label="Period"
            value={period}
            onChange={(event) => setPeriod(event.target.value as AnalyticsPeriod)}
          >
            {ANALYTICS_PERIODS.map((days) => (
              <option key={days} value={days}>
                Last {days} days
              </option>
            ))}
          </NativeSelect>
        </Filter>
        <Filter label="Bucket">
          <NativeSelect
            aria-label="Bucket"
            value={bucket}
            onChange={(event) => setBucket(event.target.value as AnalyticsBucket)}
          >
            <option value="day">Daily</option>
            <option value="week">Weekly</option>
          </NativeSelect>
        </Filter>
        <Filter label="Package">
          <NativeSelect aria-label="Package" value={packageId} onChange={(event) => setPackageId(event.target.value)}>
            <option value="">All packages</option>
            {packages?.map((pkg) => (
              <option key={pkg.id} value={pkg.id}>
                {pkg.packageName}
              </option>
            ))}
          </NativeSelect>
        </Filter>
        {holder && (
          <div
            className="flex min-h-10 items-center gap-2 rounded-md border px-3 py-1 text-sm"
            data-testid="holder-filter"
          >
            <span className="min-w-0 [overflow-wrap:anywhere]">
              License holder: <strong>{holder}</strong>
            </span>
            <Button
              variant="ghost"
              size="icon"
              className="size-6"
              aria-label="Show all license holders"
              onClick={() => setHolder(undefined)}
            >
              <X />
            </Button>
          </div>
        )}
      </section>

      <DownloadsCard filter={{ period, bucket, packageId: packageId || undefined, holder }} />

      <div className="grid gap-6 lg:grid-cols-2">
        <VersionsCard packageId={packageId || undefined} packageNames={packages?.map((pkg) => pkg.packageName)} />
        <TopHoldersCard period={period} onShowHolder={setHolder} />
      </div>
      <StaleHoldersCard packageId={packageId || undefined} />
      <SharingCard period={period} />
    </div>
  );
}

function Filter({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5 sm:w-48">
      <span className="text-sm font-medium">{label}</span>
      {children}
    </div>
  );
}

function CsvButton({ table, jsonPath }: { table: AnalyticsExport; jsonPath: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={exportPath(table, jsonPath)} download>
        <Download />
        CSV
      </a>
    </Button>
  );
}

function TableCard({
  title,
  description,
  action,
  children,
  testId,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId} className="min-w-0">
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 space-y-1.5">
          <CardTitle className="text-lg">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {action}
      </CardHeader>
      <CardContent className="min-w-0">{children}</CardContent>
    </Card>
  );
}

function Loading() {
  return (
    <div className="flex h-24 items-center justify-center" aria-busy="true">
      <Loader2 className="size-5 animate-spin text-muted-foreground" aria-label="Loading" />
    </div>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="py-6 text-center text-sm text-muted-foreground">{children}</p>;
}

/**
 * A table on a desktop; below sm each row stacks as a small card, each value beside its column's name
 * (`data-label`), so that on a phone no column waits behind a sideways scroll.
 */
function DataTable({ headers, rows, total }: { headers: string[]; rows: ReactNode[][]; total: number }) {
  return (
    <div className="space-y-2">
      <div className="sm:overflow-x-auto">
        <table className="w-full text-left text-sm max-sm:block">
          <thead className="border-b text-muted-foreground max-sm:hidden">
            <tr>
              {headers.map((header) => (
                <th key={header} scope="col" className="whitespace-nowrap px-2 py-2 font-medium">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {rows.map((cells, index) => (
              <tr key={index} className="border-b last:border-0 max-sm:block max-sm:py-2">
                {cells.map((cell, column) => (
                  <td
                    key={column}
                    data-label={headers[column]}
                    className="whitespace-nowrap px-2 py-2 max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:text-right max-sm:whitespace-normal max-sm:[overflow-wrap:anywhere] max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]"
                  >
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length && (
        <p className="text-xs text-muted-foreground">
          Showing {rows.length} of {number(total)}
          {total >= LIST_ROWS_DEFAULT ? ' or more' : ''}; the CSV export holds up to {number(LIST_ROWS_MAX)}.
        </p>
      )}
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-md border p-3">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value === undefined ? '–' : number(value)}
      </p>
    </div>
  );
}

function DownloadsCard({
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

function VersionsCard({ packageId, packageNames }: { packageId?: string; packageNames?: string[] }) {
  const adoption = useVersionAdoption(packageId);
  const { data, isLoading } = adoption;
  const [chosen, setChosen] = useState('');
  const [line, setLine] = useState('');
  const shown = data?.packages.find((entry) => entry.packageId === chosen) ?? data?.packages[0];
  // The holders come per package: the package shown.
  const { data: ofPackage } = useVersionAdoption(shown?.packageId, Boolean(shown));
  const holders = (ofPackage?.holders ?? []).filter(
    (row) => row.packageId === shown?.packageId && (line === '' || row.line === line),
  );
  const lines = [...new Set(shown?.versions.map((entry) => entry.line) ?? [])];
  return (
    <TableCard
      testId="versions-card"
      title="Version adoption"
      description="The version each license holder downloaded last."
      action={<CsvButton table="versions" jsonPath={versionsPath(packageId)} />}
    >
      {isLoading ? (
        <Loading />
      ) : hasNothingLoaded(adoption) ? (
        <Empty>Version adoption could not be loaded.</Empty>
      ) : !shown ? (
        <Empty>{packageNames?.length ? 'No downloads yet.' : 'No packages yet.'}</Empty>
      ) : (
        <div className="space-y-4">
          <div className="flex flex-col gap-2 sm:flex-row">
            {(data?.packages.length ?? 0) > 1 && (
              <NativeSelect
                aria-label="Package for version adoption"
                className="sm:w-56"
                value={shown.packageId}
                onChange={(event) => {
                  setChosen(event.target.value);
                  setLine('');
                }}
              >
                {data?.packages.map((entry) => (
                  <option key={entry.packageId} value={entry.packageId}>
                    {entry.packageName}
                  </option>
                ))}
              </NativeSelect>
            )}
            <NativeSelect
              aria-label="Version line"
              className="sm:w-40"
              value={line}
              onChange={(event) => setLine(event.target.value)}
            >
              <option value="">All versions</option>
              {lines.map((name) => (
                <option key={name} value={name}>
                  Still on {name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <VersionsChart versions={shown.versions} />
          <DataTable
            headers={['License holder', 'Version', 'Downloaded']}
            rows={holders.slice(0, TABLE_ROWS).map((row) => [row.email, row.version, formatDateTime(row.downloadedAt)])}
            total={holders.length}
          />
        </div>
      )}
    </TableCard>
  );
}

function TopHoldersCard({ period, onShowHolder }: { period: AnalyticsPeriod; onShowHolder: (email: string) => void }) {
  const holders = useTopHolders(period);
  const { data, isLoading } = holders;
  return (
    <TableCard
      testId="top-holders-card"
      title="Top license holders"
      description={`Most downloads in the last ${period} days.`}
      action={<CsvButton table="top-holders" jsonPath={topHoldersPath(period)} />}
    >
      {isLoading ? (
        <Loading />
      ) : hasNothingLoaded(holders) ? (
        <Empty>License holders could not be loaded.</Empty>
      ) : !data?.length ? (
        <Empty>No downloads in this period.</Empty>
      ) : (
        <DataTable
          headers={['License holder', 'Downloads', 'Packages', 'Last download', '']}
          rows={data.map((row) => [
            row.email,
            number(row.downloads),
            number(row.packages),
            row.lastDownloadAt ? formatDate(row.lastDownloadAt) : 'Never',
            <Button key="chart" variant="link" size="sm" className="h-auto p-0" onClick={() => onShowHolder(row.email)}>
              Chart
            </Button>,
          ])}
          total={data.length}
        />
      )}
    </TableCard>
  );
}

function StaleHoldersCard({ packageId }: { packageId?: string }) {
  const [months, setMonths] = useState<number>(6);
  const stale = useStaleHolders(months, packageId);
  const { data, isLoading } = stale;
  return (
    <TableCard
      testId="stale-holders-card"
      title="Not updated"
      description="License holders with a live license who have not downloaded the package in a while, or never."
      action={
        <div className="flex items-center gap-2">
          <NativeSelect
            aria-label="Not updated in"
            className="w-32"
            value={String(months)}
            onChange={(event) => setMonths(Number(event.target.value))}
          >
            {STALE_MONTH_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice} months
              </option>
            ))}
          </NativeSelect>
          <CsvButton table="stale-holders" jsonPath={staleHoldersPath(months, packageId)} />
        </div>
      }
    >
      {isLoading ? (
        <Loading />
      ) : hasNothingLoaded(stale) ? (
        <Empty>License holders could not be loaded.</Empty>
      ) : !data?.length ? (
        <Empty>Every license holder has downloaded within {months} months.</Empty>
      ) : (
        <DataTable
          headers={['License holder', 'Package', 'Last version', 'Last download', 'License ends']}
          rows={data
            .slice(0, TABLE_ROWS)
            .map((row) => [
              row.email,
              row.packageName,
              row.version ?? '–',
              row.lastDownloadAt ? formatDate(row.lastDownloadAt) : 'Never',
              row.licenseExpiresAt ? formatDate(row.licenseExpiresAt) : 'Never',
            ])}
          total={data.length}
        />
      )}
    </TableCard>
  );
}

function SharingCard({ period }: { period: AnalyticsPeriod }) {
  const sharing = useSharingSignal(period);
  const { data, isLoading } = sharing;
  return (
    <TableCard
      testId="sharing-card"
      title="Possible token sharing"
      description="Days on which one license holder's token downloaded from three or more networks. It can mean a shared token, or a team working from several places: nothing is blocked."
      action={<CsvButton table="sharing" jsonPath={sharingPath(period)} />}
    >
      {isLoading ? (
        <Loading />
      ) : hasNothingLoaded(sharing) ? (
        <Empty>The sharing signal could not be loaded.</Empty>
      ) : !data?.length ? (
        <Empty>No token was used from three or more networks on one day.</Empty>
      ) : (
        <DataTable
          headers={['License holder', 'Day', 'Networks', 'Downloads']}
          rows={data.slice(0, TABLE_ROWS).map((row) => [
            row.email,
            formatDate(`${row.day}T00:00:00Z`),
            <Tooltip key="networks" content={row.networks.join(', ')}>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip's trigger, so keyboards reach the list */}
              <span tabIndex={0} className="cursor-help underline decoration-dotted underline-offset-4">
                {row.networks.length}
              </span>
            </Tooltip>,
            number(row.downloads),
          ])}
          total={data.length}
        />
      )}
    </TableCard>
  );
}
