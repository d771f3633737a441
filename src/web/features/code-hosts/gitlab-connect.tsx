import { connectGitlabTokenInput } from '@contract/code-host-tokens';
import { CheckCircle2, Loader2, TriangleAlert } from 'lucide-react';
import { useSearch } from 'wouter';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { useSchemaForm } from '../../lib/schema-form';
import {
  connectOutcome,
  GITLAB_AUTHORIZE_PATH,
  useConnectGitlabToken,
  useGitlabOptions,
} from './code-host-token-hooks';

// GitLab (issue 30 item 2): Connect GitLab (OAuth, read_api and read_repository only) when the server has an OAuth
// application, and always a pasted project or group access token, for gitlab.com or a self-managed instance.

export function GitlabConnect({ disabled }: { disabled: boolean }) {
  const options = useGitlabOptions();
  const connect = useConnectGitlabToken();
  const search = new URLSearchParams(useSearch());
  // react-hook-form over the contract's schema (issue 29 item 7): what the server checks is checked first.
  const form = useSchemaForm(connectGitlabTokenInput, { token: '', baseUrl: '' });
  const token = form.watch('token');

  const submit = form.handleSubmit((input) =>
    connect.mutate(
      input,
      connectOutcome('GitLab', () => form.setValue('token', '')),
    ),
  );

  return (
    <div className="space-y-5">
      {search.get('connected') === 'gitlab' && (
        <p role="status" className="flex items-center gap-2 text-sm text-green-700" data-testid="gitlab-connected">
          <CheckCircle2 className="size-4" /> GitLab is connected. Add Package now lists its projects.
        </p>
      )}
      {search.get('error') && (
        <p role="alert" className="flex items-center gap-2 text-sm text-destructive" data-testid="gitlab-error">
          <TriangleAlert className="size-4" /> {search.get('error')}
        </p>
      )}
      {options.data?.oauth && (
        <div className="space-y-2">
          <Button asChild={!disabled} disabled={disabled} data-testid="connect-gitlab-oauth">
            {disabled ? <span>Connect GitLab</span> : <a href={GITLAB_AUTHORIZE_PATH}>Connect GitLab</a>}
          </Button>
          <p className="text-xs text-muted-foreground">
            Packgate asks {new URL(options.data.defaultUrl).host} for read_api and read_repository only: it can read
            your projects' code, never change it.
          </p>
        </div>
      )}
      <form className="space-y-3" onSubmit={submit} data-testid="gitlab-token-form">
        <FormInput
          form={form}
          name="token"
          id="gitlab-token"
          label="Access token"
          fieldClassName="space-y-1"
          hint="A project or group access token with the Reporter role and the scopes read_api and read_repository (add api only if you want Packgate to add a push webhook; without it new tags are found every few hours)."
          type="password"
          autoComplete="off"
          placeholder="glpat-..."
          required
        />
        <FormInput
          form={form}
          name="baseUrl"
          id="gitlab-url"
          label="GitLab address (self-managed only)"
          fieldClassName="space-y-1"
          type="url"
          placeholder={options.data?.defaultUrl ?? 'https://gitlab.com'}
        />
        <Button type="submit" variant="outline" disabled={disabled || connect.isPending || token.trim() === ''}>
          {connect.isPending && <Loader2 className="animate-spin" />}
          Connect with token
        </Button>
      </form>
    </div>
  );
}
