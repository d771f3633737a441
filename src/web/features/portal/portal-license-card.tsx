import type { PortalLicense } from '@contract/portal';
import { CopyCommand } from '@web/components/copy-command';
import { Badge } from '@web/components/ui/badge';
import { Card, CardContent } from '@web/components/ui/card';
import { Package } from 'lucide-react';
import {
  downloadsLine,
  lastUseLine,
  requireTarget,
  type StateBadge,
  stateBadge,
  termsLine,
  VERSIONS_SHOWN,
} from './portal-rules';

const toneClass: Record<StateBadge['tone'], string> = {
  good: 'border-transparent bg-emerald-600 text-white',
  warning: 'border-transparent bg-amber-500 text-black',
  bad: 'border-transparent bg-destructive text-destructive-foreground',
  muted: 'border-transparent bg-muted text-muted-foreground',
};

/** One license: its state, terms, what it covers, the versions it installs and its require command. */
export function LicenseCard({ license }: { license: PortalLicense }) {
  const badge = stateBadge(license);
  const shown = license.versions.slice(0, VERSIONS_SHOWN);
  const more = license.versions.length - shown.length;
  return (
    <Card data-testid="portal-license" data-state={license.state}>
      <CardContent className="space-y-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Package className="size-4 text-muted-foreground" aria-hidden="true" />
          <h2 className="min-w-0 break-all font-mono text-base font-semibold">{license.packageName}</h2>
          <Badge className={toneClass[badge.tone]} data-testid="portal-license-state">
            {badge.label}
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground">{license.description || 'No description provided'}</p>
        <p className="text-sm">{termsLine(license)}</p>
        <p className="text-sm" data-testid="portal-license-covers">
          <span className="font-medium">Covers: </span>
          {license.covers}
        </p>
        {license.notice && license.state !== 'revoked' && (
          <p className="rounded-md border bg-muted/50 p-3 text-sm" data-testid="portal-license-notice">
            {license.notice}
          </p>
        )}
        <div className="text-sm">
          <span className="font-medium">Versions available: </span>
          {shown.length === 0 ? (
            <span className="text-muted-foreground">none</span>
          ) : (
            <span className="inline-flex flex-wrap gap-1 align-middle" data-testid="portal-license-versions">
              {shown.map((version) => (
                <code key={version} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {version}
                </code>
              ))}
              {more > 0 && <span className="text-muted-foreground">and {more} more</span>}
            </span>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          {downloadsLine(license)} · {lastUseLine(license.lastUsedAt)}
        </p>
        {(license.state === 'active' || license.state === 'expiring' || license.state === 'frozen') && (
          <CopyCommand command={`composer require ${requireTarget(license)}`} />
        )}
      </CardContent>
    </Card>
  );
}
