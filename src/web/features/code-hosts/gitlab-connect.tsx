import { CheckCircle2, Loader2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { GITLAB_AUTHORIZE_PATH, useConnectGitlabToken, useGitlabOptions } from './code-host-token-hooks';

// GitLab (issue 30 item 2): Connect GitLab (OAuth, read_api and read_repository only) when the server has an OAuth
// application, and always a pasted project or group access token, for gitlab.com or a self-managed instance.

export function GitlabConnect({ disabled }: { disabled: boolean }) {
  const options = useGitlabOptions();
  const connect = useConnectGitlabToken();
  const search = new URLSearchParams(useSearch());
  const [token, setToken] = useState('');
  const [baseUrl, setBaseUrl] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { token, baseUrl: baseUrl.trim() || undefined },
      {
        onSuccess: (connected) => {
          setToken('');
          toast({ title: 'GitLab connected', description: `${connected.label} is connected.` });
        },
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to connect') }),
      },
    );
  };

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
        <div className="space-y-1">
          <Label htmlFor="gitlab-token">Access token</Label>
          <Input
            id="gitlab-token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder="glpat-..."
            required
          />
          <p className="text-xs text-muted-foreground">
            A project or group access token with the Reporter role and the scopes read_api and read_repository (add api
            only if you want Packgate to add a push webhook; without it new tags are found every few hours).
          </p>
        </div>
        <div className="space-y-1">
          <Label htmlFor="gitlab-url">GitLab address (self-managed only)</Label>
          <Input
            id="gitlab-url"
            type="url"
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            placeholder={options.data?.defaultUrl ?? 'https://gitlab.com'}
          />
        </div>
        <Button type="submit" variant="outline" disabled={disabled || connect.isPending || token.trim() === ''}>
          {connect.isPending && <Loader2 className="animate-spin" />}
          Connect with token
        </Button>
      </form>
    </div>
  );
}
