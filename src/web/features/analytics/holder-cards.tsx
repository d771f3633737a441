import { type AnalyticsPeriod, STALE_MONTH_CHOICES } from '@contract/analytics';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { Tooltip } from '../../components/ui/tooltip';
import { formatDate } from '../../lib/format-date';
import { CsvButton, DataTable, ListStates, number, TABLE_ROWS, TableCard } from './analytics-card-parts';
import {
  sharingPath,
  staleHoldersPath,
  topHoldersPath,
  useSharingSignal,
  useStaleHolders,
  useTopHolders,
} from './analytics-hooks';

/** The license holders' cards: who downloads most, who has not updated, whose token may be shared. */
export function TopHoldersCard({
  period,
  onShowHolder,
}: {
  period: AnalyticsPeriod;
  onShowHolder: (email: string) => void;
}) {
  const holders = useTopHolders(period);
  return (
    <TableCard
      testId="top-holders-card"
      title="Top license holders"
      description={`Most downloads in the last ${period} days.`}
      action={<CsvButton table="top-holders" jsonPath={topHoldersPath(period)} />}
    >
      <ListStates query={holders} failure="License holders could not be loaded." empty="No downloads in this period.">
        {(rows) => (
          <DataTable
            headers={['License holder', 'Downloads', 'Packages', 'Last download', '']}
            rows={rows.map((row) => [
              row.email,
              number(row.downloads),
              number(row.packages),
              row.lastDownloadAt ? formatDate(row.lastDownloadAt) : 'Never',
              <Button
                key="chart"
                variant="link"
                size="sm"
                className="h-auto p-0"
                onClick={() => onShowHolder(row.email)}
              >
                Chart
              </Button>,
            ])}
            total={rows.length}
          />
        )}
      </ListStates>
    </TableCard>
  );
}

export function StaleHoldersCard({ packageId }: { packageId?: string }) {
  const [months, setMonths] = useState<number>(6);
  const stale = useStaleHolders(months, packageId);
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
            <SelectOptions values={STALE_MONTH_CHOICES} label={(choice) => `${choice} months`} />
          </NativeSelect>
          <CsvButton table="stale-holders" jsonPath={staleHoldersPath(months, packageId)} />
        </div>
      }
    >
      <ListStates
        query={stale}
        failure="License holders could not be loaded."
        empty={<>Every license holder has downloaded within {months} months.</>}
      >
        {(rows) => (
          <DataTable
            headers={['License holder', 'Package', 'Last version', 'Last download', 'License ends']}
            rows={rows
              .slice(0, TABLE_ROWS)
              .map((row) => [
                row.email,
                row.packageName,
                row.version ?? '–',
                row.lastDownloadAt ? formatDate(row.lastDownloadAt) : 'Never',
                row.licenseExpiresAt ? formatDate(row.licenseExpiresAt) : 'Never',
              ])}
            total={rows.length}
          />
        )}
      </ListStates>
    </TableCard>
  );
}

export function SharingCard({ period }: { period: AnalyticsPeriod }) {
  const sharing = useSharingSignal(period);
  return (
    <TableCard
      testId="sharing-card"
      title="Possible token sharing"
      description="Days on which one license holder's token downloaded from three or more networks. It can mean a shared token, or a team working from several places: nothing is blocked."
      action={<CsvButton table="sharing" jsonPath={sharingPath(period)} />}
    >
      <ListStates
        query={sharing}
        failure="The sharing signal could not be loaded."
        empty="No token was used from three or more networks on one day."
      >
        {(rows) => (
          <DataTable
            headers={['License holder', 'Day', 'Networks', 'Downloads']}
            rows={rows.slice(0, TABLE_ROWS).map((row) => [
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
            total={rows.length}
          />
        )}
      </ListStates>
    </TableCard>
  );
}
