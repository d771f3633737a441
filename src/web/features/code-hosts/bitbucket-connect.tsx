import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { useConnectBitbucket } from './code-host-token-hooks';

// Bitbucket Cloud (issue 30 item 3): a workspace access token (every repository of the workspace) or a repository
// access token (one repository). App passwords are refused: Bitbucket ends them on 2026-06-09.

export function BitbucketConnect({ disabled }: { disabled: boolean }) {
  const connect = useConnectBitbucket();
  const [workspace, setWorkspace] = useState('');
  const [repository, setRepository] = useState('');
  const [token, setToken] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { workspace, repository: repository.trim() || undefined, token },
      {
        onSuccess: (connected) => {
          setToken('');
          toast({ title: 'Bitbucket connected', description: `${connected.label} is connected.` });
        },
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to connect') }),
      },
    );
  };

  return (
    <form className="space-y-3" onSubmit={submit} data-testid="bitbucket-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor="bitbucket-workspace">Workspace</Label>
          <Input
            id="bitbucket-workspace"
            value={workspace}
            onChange={(event) => setWorkspace(event.target.value)}
            placeholder="acme"
            required
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="bitbucket-repository">Repository (for a repository token)</Label>
          <Input
            id="bitbucket-repository"
            value={repository}
            onChange={(event) => setRepository(event.target.value)}
            placeholder="widget"
          />
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor="bitbucket-token">Access token</Label>
        <Input
          id="bitbucket-token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          required
        />
        <p className="text-xs text-muted-foreground">
          Create it under Workspace settings or Repository settings → Access tokens, with Repositories: Read and
          Webhooks: Read and write. App passwords are not accepted: Bitbucket ends them on 9 June 2026.
        </p>
      </div>
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
