import {
  AlertTriangle,
  BookOpen,
  Clock,
  KeyRound,
  Loader2,
  MoreVertical,
  Pencil,
  RefreshCw,
  ShieldAlert,
  Tag,
  Ticket,
  Trash2,
} from 'lucide-react';
import { CopyButton } from '../../components/copy-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { toast } from '../../components/ui/use-toast';
import { usePermission } from '../../lib/permissions';
import { DeployKeyDetails } from './git-url-package';
import type { Package } from './package-hooks';
import { formatDate } from './package-rules';

export type PackageAction =
  | 'licenses'
  | 'temporary-licenses'
  | 'pricing'
  | 'edit'
  | 'delete'
  | 'setup-guide'
  | 'lifecycle'
  | 'refresh';

/** One package on Management (spec seller-app §2). */
export function PackageCard({
  pkg,
  repositoryUrl,
  onAction,
}: {
  pkg: Package;
  repositoryUrl: string | undefined;
  onAction: (action: PackageAction, pkg: Package) => void;
}) {
  // What the member's role lacks is disabled with the server's sentence as the reason (issue 33).
  const writePackages = usePermission('packages:write');
  const writePrices = usePermission('prices:write');
  const readCustomers = usePermission('customers:read');
  return (
    <Card className="flex flex-col" data-testid="package-card">
      <CardHeader className="flex-row items-start gap-3 space-y-0 pb-3">
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-mono text-base font-semibold [overflow-wrap:anywhere]">{pkg.packageName}</h3>
            {pkg.isActive ? (
              <Badge className="bg-green-600 text-white">Active</Badge>
            ) : (
              <Badge variant="secondary">Inactive</Badge>
            )}
          </div>
          <SyncState pkg={pkg} />
          {pkg.accessProblem && (
            <p className="text-xs text-destructive [overflow-wrap:anywhere]" data-testid="access-problem">
              {pkg.accessProblem}
            </p>
          )}
          <DeployKeyDetails pkg={pkg} />
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="-mr-2 -mt-2 size-8"
              aria-label={`Actions for ${pkg.packageName}`}
            >
              <MoreVertical />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-52">
            <DropdownMenuItem
              onSelect={() => onAction('licenses', pkg)}
              disabled={!readCustomers.allowed}
              title={readCustomers.reason}
            >
              <Ticket /> Licenses
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={() => onAction('temporary-licenses', pkg)}
              disabled={!readCustomers.allowed}
              title={readCustomers.reason}
            >
              <KeyRound /> Temporary Licenses
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onAction('lifecycle', pkg)}>
              <ShieldAlert /> Security & Lifecycle
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={() => onAction('edit', pkg)}
              disabled={!writePackages.allowed}
              title={writePackages.reason}
            >
              <Pencil /> Edit Package
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={() => onAction('refresh', pkg)}
              disabled={pkg.syncStatus === 'syncing' || !writePackages.allowed}
              title={writePackages.reason}
            >
              <RefreshCw /> Sync Now
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              onSelect={() => onAction('delete', pkg)}
              disabled={!writePackages.allowed}
              title={writePackages.reason}
              className="text-destructive focus:bg-destructive/10 focus:text-destructive"
            >
              <Trash2 /> Delete Package
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <p className={pkg.description ? 'text-sm' : 'text-sm italic text-muted-foreground'}>
          {pkg.description || 'No description provided'}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Repository ID</dt>
          <dd className="min-w-0 font-mono text-xs leading-5 [overflow-wrap:anywhere]">
            {pkg.fullName || pkg.githubRepoId}
          </dd>
          <dt className="text-muted-foreground">Created</dt>
          <dd>{formatDate(pkg.createdAt)}</dd>
          <dt className="text-muted-foreground">Versions</dt>
          <dd>{pkg.versionCount}</dd>
        </dl>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          <CopyButton
            value={repositoryUrl ?? ''}
            label="Copy URL"
            disabled={!repositoryUrl}
            onCopied={() => toast({ title: 'Copied', description: 'Repository URL copied to clipboard' })}
          />
          <Button variant="outline" size="sm" onClick={() => onAction('setup-guide', pkg)}>
            <BookOpen /> Setup Guide
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onAction('pricing', pkg)}
            disabled={!writePrices.allowed}
            title={writePrices.reason}
          >
            <Tag /> Pricing
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** Where the package's versions stand: only said when it is not simply ready. */
function SyncState({ pkg }: { pkg: Package }) {
  const skipped = pkg.skippedReferences.length;
  if (pkg.syncStatus === 'pending' || pkg.syncStatus === 'syncing') {
    return (
      <p className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="sync-state">
        <Loader2 className="size-3.5 animate-spin" />
        {pkg.syncStatus === 'pending' ? 'Waiting to sync…' : 'Syncing versions…'}
      </p>
    );
  }
  if (pkg.syncStatus === 'failed') {
    return (
      <p className="flex items-start gap-1.5 text-xs text-destructive" data-testid="sync-state">
        <AlertTriangle className="mt-px size-3.5 shrink-0" />
        <span>Sync failed{pkg.syncError ? `: ${pkg.syncError}` : ''}</span>
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground" data-testid="sync-state">
      <Clock className="size-3.5" />
      {pkg.lastSyncedAt ? `Synced ${formatDate(pkg.lastSyncedAt)}` : 'Synced'}
      {skipped > 0 && (
        <details className="w-full text-amber-600">
          <summary className="cursor-pointer">
            {skipped} {skipped === 1 ? 'reference' : 'references'} skipped
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {pkg.skippedReferences.map((skip) => (
              <li key={skip.reference}>
                <span className="font-mono">{skip.reference}</span>: {skip.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
