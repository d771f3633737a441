import { type AdvisorySeverity, abandonPackageInput, yankVersionInput } from '@contract/lifecycle';
import { useEffect, useState } from 'react';
import { TitledDialog } from '../../components/form-dialog';
import { FieldMessage, FormInput } from '../../components/form-field';
import { LoadingLine } from '../../components/loading-line';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Tabs } from '../../components/ui/tabs';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { useSchemaForm } from '../../lib/schema-form';
import {
  type PackageLifecycle,
  useAbandonPackage,
  useLifecycle,
  useReviveAbandonedPackage,
  useUnyankVersion,
  useWithdrawAdvisory,
  useYankVersion,
} from './lifecycle-hooks';
import type { Package } from './package-hooks';
import { PublishAdvisoryForm } from './publish-advisory-form';

type Section = 'advisories' | 'versions' | 'abandon';

const SECTIONS: { value: Section; label: string }[] = [
  { value: 'advisories', label: 'Advisories' },
  { value: 'versions', label: 'Versions' },
  { value: 'abandon', label: 'Abandon' },
];

const severityClass: Record<AdvisorySeverity, string> = {
  low: 'bg-slate-500 text-white',
  medium: 'bg-amber-500 text-white',
  high: 'bg-orange-600 text-white',
  critical: 'bg-red-600 text-white',
};

/**
 * Security & Lifecycle (issue 13): what license holders' Composer shows about a package after its release:
 * advisories (`composer audit`), yanked versions (left out of updates, with the reason) and abandonment.
 */
export function LifecycleDialog({ pkg, onClose }: { pkg: Package | undefined; onClose: () => void }) {
  const [section, setSection] = useState<Section>('advisories');
  const lifecycle = useLifecycle(pkg?.id);
  // A role without packages:write reads the lifecycle with every control disabled, and why (issue 33).
  const writePackages = usePermission('packages:write');
  useEffect(() => {
    if (pkg) setSection('advisories');
  }, [pkg]);

  return (
    <TitledDialog
      open={Boolean(pkg)}
      onClose={onClose}
      title="Security & Lifecycle"
      description={
        <>
          What license holders of <span className="font-mono">{pkg?.packageName}</span> see in their terminal:
          advisories in composer audit, yanked versions on update, and Composer's abandoned warning.
        </>
      }
    >
      {writePackages.reason && <p className="text-sm text-muted-foreground">{writePackages.reason}</p>}
      <Tabs tabs={SECTIONS} value={section} onValueChange={setSection} label="Lifecycle sections">
        <fieldset disabled={!writePackages.allowed} title={writePackages.reason} className="contents">
          {!pkg || lifecycle.isLoading ? (
            <LoadingLine className="py-8">Loading...</LoadingLine>
          ) : !lifecycle.data ? (
            <p className="py-8 text-sm text-destructive">Unable to load this package's lifecycle.</p>
          ) : section === 'advisories' ? (
            <AdvisoriesSection packageId={pkg.id} lifecycle={lifecycle.data} />
          ) : section === 'versions' ? (
            <VersionsSection packageId={pkg.id} lifecycle={lifecycle.data} />
          ) : (
            <AbandonSection packageId={pkg.id} lifecycle={lifecycle.data} />
          )}
        </fieldset>
      </Tabs>
    </TitledDialog>
  );
}

function AdvisoriesSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const withdraw = useWithdrawAdvisory(packageId);
  return (
    <div className="space-y-4 pt-4">
      {lifecycle.advisories.length === 0 ? (
        <p className="text-sm text-muted-foreground">No advisories published.</p>
      ) : (
        <ul className="space-y-2" aria-label="Advisories">
          {lifecycle.advisories.map((advisory) => (
            <li key={advisory.id} className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium [overflow-wrap:anywhere]">{advisory.title}</span>
                  <Badge className={severityClass[advisory.severity]}>{advisory.severity}</Badge>
                  {advisory.withdrawnAt && <Badge variant="secondary">Withdrawn</Badge>}
                </div>
                <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                  <span className="font-mono">{advisory.affectedVersions}</span> · {advisory.cve ?? 'No CVE'} ·{' '}
                  {advisory.advisoryId} · reported {formatDate(advisory.reportedAt)} · {advisory.notifiedHolders}{' '}
                  {advisory.notifiedHolders === 1 ? 'holder' : 'holders'} e-mailed
                </p>
              </div>
              {!advisory.withdrawnAt && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={withdraw.isPending}
                  onClick={() => withdraw.mutate(advisory.advisoryId)}
                >
                  Withdraw
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <PublishAdvisoryForm packageId={packageId} />
    </div>
  );
}

function VersionsSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const unyank = useUnyankVersion(packageId);
  if (lifecycle.versions.length === 0) {
    return <p className="pt-4 text-sm text-muted-foreground">No released versions (tags) yet.</p>;
  }
  return (
    <ul className="space-y-2 pt-4" aria-label="Versions">
      {lifecycle.versions.map((version) => (
        <li key={version.version} className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-center">
          <div className="min-w-0 flex-1">
            <div className="flex items-center gap-2">
              <span className="font-mono font-medium">{version.version}</span>
              {version.yank && <Badge variant="destructive">Yanked</Badge>}
            </div>
            <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
              Released {formatDate(version.releasedAt)}
              {version.yank ? ` · ${version.yank.reason}` : ''}
            </p>
          </div>
          {version.yank ? (
            <Button
              variant="outline"
              size="sm"
              disabled={unyank.isPending}
              onClick={() => unyank.mutate(version.version)}
            >
              Restore
            </Button>
          ) : (
            <YankVersionForm packageId={packageId} version={version.version} />
          )}
        </li>
      ))}
    </ul>
  );
}

function AbandonSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const revive = useReviveAbandonedPackage(packageId);
  if (lifecycle.abandoned) {
    return (
      <div className="space-y-3 pt-4">
        <p className="text-sm">
          Marked abandoned on {formatDate(lifecycle.abandoned.abandonedAt)}.{' '}
          {lifecycle.abandoned.replacement ? (
            <>
              Holders are told to use <span className="font-mono">{lifecycle.abandoned.replacement}</span> instead.
            </>
          ) : (
            'No replacement is suggested.'
          )}
        </p>
        <Button variant="outline" disabled={revive.isPending} onClick={() => revive.mutate(undefined)}>
          Remove Abandoned Mark
        </Button>
      </div>
    );
  }
  return <AbandonForm packageId={packageId} />;
}

/** The reason is what holders' Composer prints beside the version it leaves out, so it is required. */
function YankVersionForm({ packageId, version }: { packageId: string; version: string }) {
  const yank = useYankVersion(packageId);
  const form = useSchemaForm(yankVersionInput, { reason: '' });
  const reason = form.watch('reason');
  const submit = form.handleSubmit(({ reason }) => yank.mutate({ version, reason }));
  return (
    <form className="flex flex-col gap-1" onSubmit={submit} noValidate>
      <div className="flex gap-2">
        <Input
          aria-label={`Reason for yanking ${version}`}
          aria-invalid={Boolean(form.formState.errors.reason)}
          placeholder="Reason"
          className="h-9 sm:w-56"
          {...form.register('reason')}
        />
        <Button type="submit" variant="destructive" size="sm" disabled={yank.isPending || !reason.trim()}>
          Yank
        </Button>
      </div>
      <FieldMessage error={form.formState.errors.reason?.message} />
    </form>
  );
}

function AbandonForm({ packageId }: { packageId: string }) {
  const abandon = useAbandonPackage(packageId);
  const form = useSchemaForm(abandonPackageInput, { replacement: '' });
  const submit = form.handleSubmit((input) => abandon.mutate(input));
  return (
    <form className="space-y-3 pt-4" noValidate onSubmit={submit}>
      <p className="text-sm text-muted-foreground">
        Composer warns every holder who has this package installed that it is abandoned, and names the replacement if
        you give one. Installs keep working.
      </p>
      <FormInput
        form={form}
        name="replacement"
        id="abandon-replacement"
        label="Replacement package"
        className="font-mono"
        placeholder="vendor/package"
      />
      <Button type="submit" variant="destructive" disabled={abandon.isPending}>
        Mark Abandoned
      </Button>
    </form>
  );
}
