import type { CodeHostConnection, CodeHostOverview } from '@contract/code-hosts';
import { FolderGit2, GitBranch, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { GithubIcon } from '../../components/github-icon';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { useCodeHosts, useRemoveConnection } from './code-hosts-hooks';
import { connectForms } from './connect-forms';

export { GithubAppSetupPage } from './github-app-connect';

// /code-hosts (issue 30 item 7): where the seller's code comes from. Each connection says what it may read and
// whether it works; removing one keeps its packages serving what was published.

const KIND_NAMES: Record<CodeHostConnection['kind'], string> = {
  github_app: 'GitHub App',
  github_oauth: 'GitHub (OAuth grant)',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket Cloud',
  git: 'Git server',
  local: 'Local folder',
};

export function CodeHostsPage() {
  const overview = useCodeHosts();
  const write = usePermission('packages:write');
  const remove = useRemoveConnection();
  const [removing, setRemoving] = useState<CodeHostConnection>();
  const connections = overview.data?.connections ?? [];
  const hasOAuth = connections.some((connection) => connection.kind === 'github_oauth');

  return (
    <div className="container mx-auto max-w-4xl space-y-8 px-4 py-10">
      <PageHeading title="Code hosts" className="space-y-1">
        Where your packages' code comes from. Packgate only reads code and hears about new tags; it never writes to your
        repositories.
      </PageHeading>

      {hasOAuth && overview.data?.available.githubApp && (
        <div
          role="status"
          data-testid="oauth-notice"
          className="flex gap-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
        >
          <TriangleAlert className="size-5 shrink-0 text-amber-600" />
          <p>
            Your GitHub connection is an OAuth grant that can read and write every repository your account reaches.
            Install the GitHub App instead: it reads only the repositories you pick. Once it is installed on the same
            repositories, your packages move to it with their licenses and download history, and you can remove the old
            grant.
          </p>
        </div>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Connections</CardTitle>
          <CardDescription>Add Package lists the repositories of every connection.</CardDescription>
        </CardHeader>
        <CardContent>
          {overview.isLoading ? (
            <LoadingLine className="text-sm">Loading connections...</LoadingLine>
          ) : overview.error ? (
            <LoadError error={overview.error} fallback="Failed to load connections" />
          ) : connections.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="no-connections">
              No code host is connected yet. Connect one below, then add packages from its repositories.
            </p>
          ) : (
            <ul className="divide-y rounded-md border" aria-label="Connections">
              {connections.map((connection) => (
                <ConnectionRow
                  key={connection.id}
                  connection={connection}
                  canRemove={write.allowed}
                  reason={write.reason}
                  onRemove={() => setRemoving(connection)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      {overview.data && <ConnectCards available={overview.data.available} canConnect={write.allowed} />}

      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove Connection"
        description={
          removing && removing.packageCount > 0
            ? `${removing.label} is removed. Its ${removing.packageCount === 1 ? 'package keeps' : `${removing.packageCount} packages keep`} serving every version already published, but will get no new versions until you add it from another connection.`
            : `${removing?.label ?? ''} is removed. No package uses it.`
        }
        confirmText="Remove"
        variant="destructive"
        isPending={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast({ title: 'Connection removed', description: removing.label });
              setRemoving(undefined);
            },
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Error',
                description: errorMessage(error, 'Failed to remove the connection'),
              }),
          })
        }
      />
    </div>
  );
}

function ConnectionRow({
  connection,
  canRemove,
  reason,
  onRemove,
}: {
  connection: CodeHostConnection;
  canRemove: boolean;
  reason: string | undefined;
  onRemove: () => void;
}) {
  const isGithub = connection.kind === 'github_app' || connection.kind === 'github_oauth';
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start" data-testid="connection">
      <span className="mt-0.5 text-muted-foreground [&_svg]:size-5">
        {isGithub ? <GithubIcon /> : connection.kind === 'local' ? <FolderGit2 /> : <GitBranch />}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium [overflow-wrap:anywhere]">{connection.label}</span>
          <Badge variant="outline">{KIND_NAMES[connection.kind]}</Badge>
          {connection.status === 'broken' ? (
            <Badge variant="destructive">Not working</Badge>
          ) : (
            <Badge variant="secondary">Working</Badge>
          )}
        </p>
        <p className="text-sm text-muted-foreground">May access: {connection.access}</p>
        <p className="text-xs text-muted-foreground">
          {connection.packageCount} {connection.packageCount === 1 ? 'package' : 'packages'} · connected{' '}
          {formatDate(connection.createdAt)}
        </p>
        {connection.problem && (
          <p className="text-sm text-destructive" data-testid="connection-problem">
            {connection.problem}
          </p>
        )}
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={onRemove}
        disabled={!canRemove}
        title={canRemove ? undefined : reason}
        aria-label={`Remove ${connection.label}`}
      >
        <Trash2 /> Remove
      </Button>
    </li>
  );
}

/** A card per kind of host this server can connect, each with its own form (connect-forms.tsx). */
function ConnectCards({ available, canConnect }: { available: CodeHostOverview['available']; canConnect: boolean }) {
  const offered = connectForms.filter((form) => form.isAvailable(available));
  if (offered.length === 0) return null;
  return (
    <div className="space-y-4">
      <h2 className="text-xl font-semibold">Connect a code host</h2>
      {offered.map(({ kind, title, description, Form }) => (
        <Card key={kind}>
          <CardHeader>
            <CardTitle>{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form disabled={!canConnect} />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
