import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '@contract/lifecycle';
import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Tabs } from '../../components/ui/tabs';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import {
  type PackageLifecycle,
  useAbandonPackage,
  useLifecycle,
  usePublishAdvisory,
  useReviveAbandonedPackage,
  useUnyankVersion,
  useWithdrawAdvisory,
  useYankVersion,
} from './lifecycle-hooks';
import type { Package } from './package-hooks';

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
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Security & Lifecycle</DialogTitle>
          <DialogDescription>
            What license holders of <span className="font-mono">{pkg?.packageName}</span> see in their terminal:
            advisories in composer audit, yanked versions on update, and Composer's abandoned warning.
          </DialogDescription>
        </DialogHeader>
        {writePackages.reason && <p className="text-sm text-muted-foreground">{writePackages.reason}</p>}
        <Tabs tabs={SECTIONS} value={section} onValueChange={setSection} label="Lifecycle sections">
          <fieldset disabled={!writePackages.allowed} title={writePackages.reason} className="contents">
            {!pkg || lifecycle.isLoading ? (
              <p className="flex items-center gap-2 py-8 text-muted-foreground">
                <Loader2 className="size-4 animate-spin" /> Loading...
              </p>
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
      </DialogContent>
    </Dialog>
  );
}

function AdvisoriesSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const publish = usePublishAdvisory(packageId);
  const withdraw = useWithdrawAdvisory(packageId);
  const [title, setTitle] = useState('');
  const [affectedVersions, setAffectedVersions] = useState('');
  const [severity, setSeverity] = useState<AdvisorySeverity>('high');
  const [cve, setCve] = useState('');
  const [link, setLink] = useState('');
  const [reportedAt, setReportedAt] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate(
      {
        title,
        affectedVersions,
        severity,
        cve: cve.trim() || null,
        link: link.trim() || null,
        ...(reportedAt ? { reportedAt } : {}),
      },
      {
        onSuccess: () => {
          setTitle('');
          setAffectedVersions('');
          setCve('');
          setLink('');
          setReportedAt('');
        },
      },
    );
  };

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
      <form onSubmit={submit} className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" noValidate>
        <p className="text-sm font-medium sm:col-span-2">Publish an advisory</p>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor="advisory-title">Title *</Label>
          <Input id="advisory-title" value={title} onChange={(event) => setTitle(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="advisory-affected">Affected versions *</Label>
          <Input
            id="advisory-affected"
            className="font-mono"
            placeholder=">=1.0,<1.4.2"
            value={affectedVersions}
            onChange={(event) => setAffectedVersions(event.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="advisory-severity">Severity</Label>
          <NativeSelect
            id="advisory-severity"
            value={severity}
            onChange={(event) => setSeverity(event.target.value as AdvisorySeverity)}
          >
            {ADVISORY_SEVERITIES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="advisory-cve">CVE</Label>
          <Input
            id="advisory-cve"
            placeholder="CVE-2026-12345"
            value={cve}
            onChange={(event) => setCve(event.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="advisory-date">Reported on</Label>
          <Input
            id="advisory-date"
            type="date"
            value={reportedAt}
            onChange={(event) => setReportedAt(event.target.value)}
          />
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor="advisory-link">Link</Label>
          <Input
            id="advisory-link"
            type="url"
            placeholder="https://"
            value={link}
            onChange={(event) => setLink(event.target.value)}
          />
        </div>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={publish.isPending || !title.trim() || !affectedVersions.trim()}>
            {publish.isPending && <Loader2 className="animate-spin" />}
            Publish Advisory
          </Button>
        </div>
      </form>
    </div>
  );
}

function VersionsSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const yank = useYankVersion(packageId);
  const unyank = useUnyankVersion(packageId);
  const [reasons, setReasons] = useState<Record<string, string>>({});
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
            <div className="flex gap-2">
              <Input
                aria-label={`Reason for yanking ${version.version}`}
                placeholder="Reason"
                className="h-9 sm:w-56"
                value={reasons[version.version] ?? ''}
                onChange={(event) => setReasons({ ...reasons, [version.version]: event.target.value })}
              />
              <Button
                variant="destructive"
                size="sm"
                disabled={yank.isPending || !(reasons[version.version] ?? '').trim()}
                onClick={() => yank.mutate({ version: version.version, reason: reasons[version.version] ?? '' })}
              >
                Yank
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function AbandonSection({ packageId, lifecycle }: { packageId: string; lifecycle: PackageLifecycle }) {
  const abandon = useAbandonPackage(packageId);
  const revive = useReviveAbandonedPackage(packageId);
  const [replacement, setReplacement] = useState('');
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
  return (
    <form
      className="space-y-3 pt-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        abandon.mutate({ replacement: replacement.trim() || null });
      }}
    >
      <p className="text-sm text-muted-foreground">
        Composer warns every holder who has this package installed that it is abandoned, and names the replacement if
        you give one. Installs keep working.
      </p>
      <div className="space-y-1.5">
        <Label htmlFor="abandon-replacement">Replacement package</Label>
        <Input
          id="abandon-replacement"
          className="font-mono"
          placeholder="vendor/package"
          value={replacement}
          onChange={(event) => setReplacement(event.target.value)}
        />
      </div>
      <Button type="submit" variant="destructive" disabled={abandon.isPending}>
        Mark Abandoned
      </Button>
    </form>
  );
}
