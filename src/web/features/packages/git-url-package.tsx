import type { CreateGitPackageInput, CreatePackageResponse, Package } from '@contract/packages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2, RefreshCw } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { packagesQuery } from './package-hooks';

// Any git server by URL (issue 30 item 4): HTTPS with a user name and password (or token), or SSH with a deploy key
// Packgate generates and shows here, with the fingerprint of the server's host key it pinned.

const SSH_URL = /^(ssh:\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/;

export function useCreateGitPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateGitPackageInput) =>
      apiRequest<CreatePackageResponse>('POST', '/api/repositories/from-url', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: packagesQuery().queryKey }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to create package') }),
  });
}

/** Check for new tags: the seller's packages compared with their code hosts now (tags pushed without a webhook). */
export function useReconcilePackages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ jobId: string }>('POST', '/api/repositories/reconcile'),
    onSuccess: () => {
      toast({
        title: 'Checking for new tags',
        description: 'Packages whose code host has tags or branches not yet published are synced now.',
      });
      return queryClient.invalidateQueries({ queryKey: packagesQuery().queryKey });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to check for tags') }),
  });
}

export function CheckForTagsButton() {
  const reconcile = useReconcilePackages();
  return (
    <Button variant="outline" onClick={() => reconcile.mutate()} disabled={reconcile.isPending}>
      <RefreshCw className={reconcile.isPending ? 'animate-spin' : undefined} /> Check for new tags
    </Button>
  );
}

/** The public deploy key to add to the repository, read only, and the pinned host key's fingerprint. */
export function DeployKeyDetails({ pkg }: { pkg: Pick<Package, 'deployKey' | 'sshHostKeyFingerprint'> }) {
  if (!pkg.deployKey) return null;
  return (
    <div className="space-y-2 rounded-md border bg-muted/40 p-3 text-xs" data-testid="deploy-key">
      <p className="flex items-center gap-1 font-medium">
        <KeyRound className="size-3.5" /> Deploy key (add it to the repository as a read-only key)
      </p>
      <div className="flex items-start gap-2">
        <code className="min-w-0 flex-1 font-mono [overflow-wrap:anywhere]" data-testid="deploy-key-text">
          {pkg.deployKey}
        </code>
        <CopyButton value={pkg.deployKey} failureMessage="Failed to copy the deploy key" />
      </div>
      {pkg.sshHostKeyFingerprint && (
        <p className="text-muted-foreground">
          Server host key pinned: <code className="font-mono">{pkg.sshHostKeyFingerprint}</code>. Packgate refuses the
          server if this key changes.
        </p>
      )}
    </div>
  );
}

/** Add a package from any git server by its URL; over SSH the answer's deploy key is shown before closing. */
export function GitUrlPackageForm({ onDone }: { onDone: () => void }) {
  const create = useCreateGitPackage();
  const [repositoryUrl, setRepositoryUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [packageName, setPackageName] = useState('');
  const [created, setCreated] = useState<CreatePackageResponse>();
  const isSsh = SSH_URL.test(repositoryUrl.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        repositoryUrl: repositoryUrl.trim(),
        ...(!isSsh && username.trim() ? { credentials: { username: username.trim(), password } } : {}),
        ...(packageName.trim() ? { packageName: packageName.trim() } : {}),
      },
      {
        onSuccess: (answer) => {
          toast({ title: 'Success!', description: `Package ${answer.packageName} created` });
          if (answer.deployKey) setCreated(answer);
          else onDone();
        },
      },
    );
  };

  if (created) {
    return (
      <div className="space-y-3" data-testid="git-url-created">
        <p className="text-sm">
          {created.packageName} is added. Add this deploy key to the repository on your git server, then click Sync Now
          on the package.
        </p>
        <DeployKeyDetails pkg={created} />
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="git-url-form">
      <div className="space-y-1">
        <Label htmlFor="git-url">Repository URL</Label>
        <Input
          id="git-url"
          className="font-mono"
          placeholder="https://git.example.com/acme/widget.git or git@git.example.com:acme/widget.git"
          value={repositoryUrl}
          onChange={(event) => setRepositoryUrl(event.target.value)}
          autoComplete="off"
          required
        />
        <p className="text-xs text-muted-foreground">
          {isSsh
            ? 'Packgate makes a deploy key for this package; you add it to the repository as a read-only key.'
            : 'Over HTTPS, give a user name and a password or access token that can read the repository.'}
        </p>
      </div>
      {!isSsh && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1">
            <Label htmlFor="git-username">User name</Label>
            <Input
              id="git-username"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="git-password">Password or token</Label>
            <Input
              id="git-password"
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
            />
          </div>
        </div>
      )}
      <div className="space-y-1">
        <Label htmlFor="git-package-name">Composer name (optional)</Label>
        <Input
          id="git-package-name"
          className="font-mono"
          placeholder="From composer.json"
          value={packageName}
          onChange={(event) => setPackageName(event.target.value)}
          autoComplete="off"
        />
      </div>
      <Button type="submit" disabled={create.isPending || !repositoryUrl.trim()}>
        {create.isPending && <Loader2 className="animate-spin" />}
        {isSsh ? 'Create Package and Deploy Key' : 'Create Package from URL'}
      </Button>
    </form>
  );
}
