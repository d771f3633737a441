import { useState } from 'react';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { formatDateTime } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { CsvButton, DataTable, Empty, Loading, TABLE_ROWS, TableCard } from './analytics-card-parts';
import { VersionsChart } from './analytics-charts';
import { useVersionAdoption, versionsPath } from './analytics-hooks';

/** The version each holder downloaded last, per package, filtered by version line. */
export function VersionsCard({ packageId, packageNames }: { packageId?: string; packageNames?: string[] }) {
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
              <SelectOptions values={lines} label={(name) => `Still on ${name}`} />
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
