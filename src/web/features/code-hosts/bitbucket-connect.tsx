import { type ConnectBitbucketInput, connectBitbucketInput } from '@contract/code-host-tokens';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { connectOutcome, useConnectBitbucket } from './code-host-token-hooks';

// Bitbucket Cloud (issue 30 item 3): a workspace access token (every repository of the workspace) or a repository
// access token (one repository). App passwords are refused: Bitbucket ends them on 2026-06-09.

export function BitbucketConnect({ disabled }: { disabled: boolean }) {
  const connect = useConnectBitbucket();
  // react-hook-form over the contract's schema (issue 29 item 7): what the server checks is checked first.
  const form = useForm<ConnectBitbucketInput, unknown, z.output<typeof connectBitbucketInput>>({
    resolver: zodResolver(connectBitbucketInput),
    defaultValues: { workspace: '', repository: '', token: '' },
  });
  const { errors } = form.formState;
  const [workspace, token] = form.watch(['workspace', 'token']);

  const submit = form.handleSubmit((input) =>
    connect.mutate(
      input,
      connectOutcome('Bitbucket', () => form.setValue('token', '')),
    ),
  );

  return (
    <form className="space-y-3" onSubmit={submit} data-testid="bitbucket-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField id="bitbucket-workspace" label="Workspace" className="space-y-1" error={errors.workspace?.message}>
          {(control) => <Input {...control} placeholder="acme" required {...form.register('workspace')} />}
        </FormField>
        <FormField
          id="bitbucket-repository"
          label="Repository (for a repository token)"
          className="space-y-1"
          error={errors.repository?.message}
        >
          {(control) => <Input {...control} placeholder="widget" {...form.register('repository')} />}
        </FormField>
      </div>
      <FormField
        id="bitbucket-token"
        label="Access token"
        className="space-y-1"
        hint="Create it under Workspace settings or Repository settings → Access tokens, with Repositories: Read and Webhooks: Read and write. App passwords are not accepted: Bitbucket ends them on 9 June 2026."
        error={errors.token?.message}
      >
        {(control) => <Input {...control} type="password" autoComplete="off" required {...form.register('token')} />}
      </FormField>
      <Button
        type="submit"
        variant="outline"
        disabled={disabled || connect.isPending || !workspace.trim() || !token.trim()}
      >
        {connect.isPending && <Loader2 className="animate-spin" />}
        Connect Bitbucket
      </Button>
    </form>
  );
}
