import { connectBitbucketInput } from '@contract/code-host-tokens';
import { Loader2 } from 'lucide-react';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { useSchemaForm } from '../../lib/schema-form';
import { connectOutcome, useConnectBitbucket } from './code-host-token-hooks';

// Bitbucket Cloud (issue 30 item 3): a workspace access token (every repository of the workspace) or a repository
// access token (one repository). App passwords are refused: Bitbucket ends them on 2026-06-09.

export function BitbucketConnect({ disabled }: { disabled: boolean }) {
  const connect = useConnectBitbucket();
  // react-hook-form over the contract's schema (issue 29 item 7): what the server checks is checked first.
  const form = useSchemaForm(connectBitbucketInput, { workspace: '', repository: '', token: '' });
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
        <FormInput
          form={form}
          name="workspace"
          id="bitbucket-workspace"
          label="Workspace"
          fieldClassName="space-y-1"
          placeholder="acme"
          required
        />
        <FormInput
          form={form}
          name="repository"
          id="bitbucket-repository"
          label="Repository (for a repository token)"
          fieldClassName="space-y-1"
          placeholder="widget"
        />
      </div>
      <FormInput
        form={form}
        name="token"
        id="bitbucket-token"
        label="Access token"
        fieldClassName="space-y-1"
        hint="Create it under Workspace settings or Repository settings → Access tokens, with Repositories: Read and Webhooks: Read and write. App passwords are not accepted: Bitbucket ends them on 9 June 2026."
        type="password"
        autoComplete="off"
        required
      />
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
