import type { CreateGitPackageInput, CreatePackageResponse, Package } from '@contract/packages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { createGitPackageInput } from '../../../contract/packages';
import { CopyButton } from '../../components/copy-button';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { intoContract } from '../../lib/contract-form';
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

/**
 * The form's text into the contract's body: a user name and password go only with an HTTPS URL that has a user name
 * (an SSH URL gets a deploy key instead), and an empty Composer name is left out (composer.json names the package).
 */
const gitUrlPackageForm = z
  .object({ repositoryUrl: z.string(), username: z.string(), password: z.string(), packageName: z.string() })
  .transform(
    intoContract(
      createGitPackageInput,
      ({ repositoryUrl, username, password, packageName }) => ({
        repositoryUrl: repositoryUrl.trim(),
        ...(!SSH_URL.test(repositoryUrl.trim()) && username.trim()
          ? { credentials: { username: username.trim(), password } }
          : {}),
        ...(packageName.trim() ? { packageName: packageName.trim() } : {}),
      }),
      { 'credentials.username': 'username', 'credentials.password': 'password' },
    ),
  );

/** Add a package from any git server by its URL; over SSH the answer's deploy key is shown before closing. */
export function GitUrlPackageForm({ onDone }: { onDone: () => void }) {
  const create = useCreateGitPackage();
  const form = useForm<z.input<typeof gitUrlPackageForm>, unknown, z.output<typeof gitUrlPackageForm>>({
    resolver: zodResolver(gitUrlPackageForm),
    defaultValues: { repositoryUrl: '', username: '', password: '', packageName: '' },
  });
  const { errors } = form.formState;
  const [created, setCreated] = useState<CreatePackageResponse>();
  const repositoryUrl = form.watch('repositoryUrl');
  const isSsh = SSH_URL.test(repositoryUrl.trim());

  const submit = form.handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: (answer) => {
        toast({ title: 'Success!', description: `Package ${answer.packageName} created` });
        if (answer.deployKey) setCreated(answer);
        else onDone();
      },
    }),
  );

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
      <FormField
        id="git-url"
        label="Repository URL"
        className="space-y-1"
        error={errors.repositoryUrl?.message}
        hint={
          isSsh
            ? 'Packgate makes a deploy key for this package; you add it to the repository as a read-only key.'
            : 'Over HTTPS, give a user name and a password or access token that can read the repository.'
        }
      >
        {(control) => (
          <Input
            {...control}
            className="font-mono"
            placeholder="https://git.example.com/acme/widget.git or git@git.example.com:acme/widget.git"
            autoComplete="off"
            required
            {...form.register('repositoryUrl')}
          />
        )}
      </FormField>
      {!isSsh && (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField id="git-username" label="User name" className="space-y-1" error={errors.username?.message}>
            {(control) => <Input {...control} autoComplete="off" {...form.register('username')} />}
          </FormField>
          <FormField id="git-password" label="Password or token" className="space-y-1" error={errors.password?.message}>
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />
            )}
          </FormField>
        </div>
      )}
      <FormField
        id="git-package-name"
        label="Composer name (optional)"
        className="space-y-1"
        error={errors.packageName?.message}
      >
        {(control) => (
          <Input
            {...control}
            className="font-mono"
            placeholder="From composer.json"
            autoComplete="off"
            {...form.register('packageName')}
          />
        )}
      </FormField>
      <Button type="submit" disabled={create.isPending || !repositoryUrl.trim()}>
        {create.isPending && <Loader2 className="animate-spin" />}
        {isSsh ? 'Create Package and Deploy Key' : 'Create Package from URL'}
      </Button>
    </form>
  );
}
