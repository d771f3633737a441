import { CLIENT_ROUTES } from '@contract/client-routes';
import { CheckCircle2, Loader2, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { failureToast } from '../../components/failure-toast';
import { GithubIcon } from '../../components/github-icon';
import { LoadingLine } from '../../components/loading-line';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-error';
import { useConnectGithubApp, useGithubAppInstall } from './code-hosts-hooks';

// The GitHub App (issue 30 item 1): Install sends the seller to GitHub to pick repositories; GitHub sends them back to
// the Setup URL (/code-hosts/github-app/setup), where the installation is checked and connected.

export function GithubAppConnect({ disabled }: { disabled: boolean }) {
  const install = useGithubAppInstall();
  const start = () =>
    install.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => failureToast('Error', error, 'Failed to start'),
    });
  return (
    <Button onClick={start} disabled={disabled || install.isPending} data-testid="install-github-app">
      {install.isPending ? <Loader2 className="animate-spin" /> : <GithubIcon />}
      Install the GitHub App
    </Button>
  );
}

/** The Setup URL: connects the installation GitHub names, once, and says what happened. */
export function GithubAppSetupPage() {
  const search = new URLSearchParams(useSearch());
  const installationId = search.get('installation_id') ?? '';
  const state = search.get('state') ?? '';
  const connect = useConnectGithubApp();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !installationId || !state) return;
    started.current = true;
    connect.mutate({ installationId, state });
  }, [installationId, state, connect]);

  const moved = connect.data?.movedPackages ?? [];
  return (
    <div className="container mx-auto max-w-2xl space-y-6 px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Connecting the GitHub App</h1>
      {search.get('setup_action') === 'update' && !state ? (
        <Notice tone="success">
          Your changes to the installation are saved on GitHub. Add Package lists its repositories as they are now.
        </Notice>
      ) : !installationId || !state ? (
        <Notice tone="error">
          GitHub did not say which installation to connect. Start again from Code hosts with Install the GitHub App.
        </Notice>
      ) : connect.isSuccess ? (
        <Notice tone="success">
          {connect.data.label} is connected. Add Package now lists its repositories.
          {moved.length > 0 && ` ${moved.join(', ')} now sync through the App, with their licenses and downloads.`}
        </Notice>
      ) : connect.isError ? (
        <Notice tone="error">{errorMessage(connect.error, 'The installation could not be connected.')}</Notice>
      ) : (
        <LoadingLine>Checking the installation with GitHub...</LoadingLine>
      )}
      <Button asChild variant="outline">
        <Link href={CLIENT_ROUTES.codeHosts}>Back to Code hosts</Link>
      </Button>
    </div>
  );
}

function Notice({ tone, children }: { tone: 'success' | 'error'; children: React.ReactNode }) {
  return (
    <div
      role="status"
      data-testid={`github-app-${tone}`}
      className={
        tone === 'success'
          ? 'flex gap-3 rounded-md border border-green-600/40 bg-green-600/10 p-4 text-sm'
          : 'flex gap-3 rounded-md border border-destructive/50 bg-destructive/10 p-4 text-sm'
      }
    >
      {tone === 'success' ? (
        <CheckCircle2 className="size-5 shrink-0 text-green-600" />
      ) : (
        <TriangleAlert className="size-5 shrink-0 text-destructive" />
      )}
      <p>{children}</p>
    </div>
  );
}
