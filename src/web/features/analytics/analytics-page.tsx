import { ANALYTICS_PERIODS, type AnalyticsBucket, type AnalyticsPeriod } from '@contract/analytics';
import { X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { useSellerPackages } from './analytics-hooks';
import { DownloadsCard } from './downloads-card';
import { SharingCard, StaleHoldersCard, TopHoldersCard } from './holder-cards';
import { VersionsCard } from './versions-card';

/** /analytics: the seller's downloads, versions and license holders (issue 14). Days are UTC. */
export function AnalyticsPage() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30');
  const [bucket, setBucket] = useState<AnalyticsBucket>('day');
  const [packageId, setPackageId] = useState('');
  const [holder, setHolder] = useState<string | undefined>();
  const { data: packages } = useSellerPackages();

  return (
    <div className="container mx-auto space-y-6 px-4 py-8 sm:py-10">
      <PageHeading title="Analytics" className="space-y-1" as="header">
        Downloads of your packages, the versions your license holders use, and who may need a nudge. Days are UTC.
      </PageHeading>

      <section aria-label="Filters" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <Filter label="Period">
          <NativeSelect
            aria-label="Period"
            value={period}
            onChange={(event) => setPeriod(event.target.value as AnalyticsPeriod)}
          >
            <SelectOptions values={ANALYTICS_PERIODS} label={(days) => `Last ${days} days`} />
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
