import type { CreateGitPackageInput, CreatePackageResponse, Package } from '@contract/packages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { createGitPackageInput } from '../../../contract/packages';
import { CopyButton } from '../../components/copy-button';
import { failureToast } from '../../components/failure-toast';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { intoContract } from '../../lib/contract-form';
import { useSchemaForm } from '../../lib/schema-form';
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
    onError: (error) => failureToast('Error', error, 'Failed to create package'),
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
    onError: (error) => failureToast('Error', error, 'Failed to check for tags'),
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
  const form = useSchemaForm(gitUrlPackageForm, { repositoryUrl: '', username: '', password: '', packageName: '' });
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
      <FormInput
        form={form}
        name="repositoryUrl"
        id="git-url"
        label="Repository URL"
        fieldClassName="space-y-1"
        hint={
          isSsh
            ? 'Packgate makes a deploy key for this package; you add it to the repository as a read-only key.'
            : 'Over HTTPS, give a user name and a password or access token that can read the repository.'
        }
        className="font-mono"
        placeholder="https://git.example.com/acme/widget.git or git@git.example.com:acme/widget.git"
        autoComplete="off"
        required
      />
      {!isSsh && (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormInput
            form={form}
            name="username"
            id="git-username"
            label="User name"
            fieldClassName="space-y-1"
            autoComplete="off"
          />
          <FormInput
            form={form}
            name="password"
            id="git-password"
            label="Password or token"
            fieldClassName="space-y-1"
            type="password"
            autoComplete="new-password"
          />
        </div>
      )}
      <FormInput
        form={form}
        name="packageName"
        id="git-package-name"
        label="Composer name (optional)"
        fieldClassName="space-y-1"
        className="font-mono"
        placeholder="From composer.json"
        autoComplete="off"
      />
      <Button type="submit" disabled={create.isPending || !repositoryUrl.trim()}>
        {create.isPending && <Loader2 className="animate-spin" />}
        {isSsh ? 'Create Package and Deploy Key' : 'Create Package from URL'}
      </Button>
    </form>
  );
}
