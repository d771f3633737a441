import type { DebugSession } from '@contract/auth';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { GithubIcon } from '../../components/github-icon';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { SectionCard } from '../../components/ui/card';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useCurrentUser } from '../../lib/current-user';
import { GITHUB_SIGN_IN_PATH } from '../../lib/sign-in';
import { useClearClientState, useLogout } from './logout';

const DEBUG_SESSION_PATH = '/api/debug/session';

type Outcome = { action: string; ok: boolean; detail: string; at: string };

/** /logout-test: compares the ways of signing out (only with debug routes enabled). */
export function LogoutTestPage() {
  const queryClient = useQueryClient();
  const { data: user, isLoading: userLoading } = useCurrentUser();
  const session = useQuery({ queryKey: [DEBUG_SESSION_PATH], queryFn: getJson<DebugSession>, staleTime: 0 });
  const { logout, isLoggingOut } = useLogout();
  const clearClientState = useClearClientState();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [busy, setBusy] = useState<string | null>(null);

  const record = (action: string, ok: boolean, detail: string) =>
    setOutcomes((previous) => [{ action, ok, detail, at: new Date().toLocaleTimeString('en-US') }, ...previous]);

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] }),
      queryClient.invalidateQueries({ queryKey: [DEBUG_SESSION_PATH] }),
    ]);
  };

  const serverLogout = async (action: string, path: string) => {
    setBusy(action);
    try {
      const result = await apiRequest<{ message: string; hadSession: boolean }>('POST', path);
      record(action, true, `${result.message} (had a session: ${result.hadSession ? 'yes' : 'no'})`);
    } catch (error) {
      record(action, false, errorMessage(error, 'Request failed'));
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const clientForceClear = async () => {
    clearClientState();
    try {
      sessionStorage.clear();
    } catch {
      // Blocked storage has nothing to clear.
    }
    record('Client Force Clear', true, 'Query cache, realtime connection, tasks, toasts and CSRF token cleared.');
    await refresh();
  };

  return (
    <div className="container mx-auto max-w-4xl space-y-6 px-4 py-10">
      <PageHeading title="Logout Test">Debug page: compare the client and server views of the session.</PageHeading>

      <div className="grid gap-6 md:grid-cols-2">
        <SectionCard
          title="Auth State"
          description="What this tab believes (GET /api/auth/user)"
          contentClassName="space-y-2 text-sm"
        >
          {userLoading ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : user ? (
            <>
              <Badge>Signed in</Badge>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                <dt className="text-muted-foreground">User</dt>
                <dd className="break-all">{user.githubUsername ?? user.email}</dd>
                <dt className="text-muted-foreground">Type</dt>
                <dd>{user.userType}</dd>
                <dt className="text-muted-foreground">Impersonating</dt>
                <dd>{user.isImpersonating ? 'yes' : 'no'}</dd>
              </dl>
            </>
          ) : (
            <Badge variant="secondary">Signed out</Badge>
          )}
        </SectionCard>

        <SectionCard
          title="Server Session"
          description="What the server knows (GET /api/debug/session)"
          contentClassName="text-sm"
        >
          {session.isLoading ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : session.isError ? (
            <p className="text-destructive">{errorMessage(session.error, 'Could not load the session.')}</p>
          ) : (
            <pre className="max-h-72 overflow-auto rounded-md bg-muted p-3 text-xs">
              {JSON.stringify(session.data, null, 2)}
            </pre>
          )}
        </SectionCard>
      </div>

      <SectionCard title="Actions" contentClassName="flex flex-wrap gap-3">
        <Button onClick={logout} disabled={isLoggingOut}>
          {isLoggingOut && <Loader2 className="animate-spin" />}
          Normal Logout
        </Button>
        <Button
          variant="outline"
          disabled={busy !== null}
          onClick={() => serverLogout('Test Logout', '/api/debug/test-logout')}
        >
          Test Logout
        </Button>
        <Button
          variant="destructive"
          disabled={busy !== null}
          onClick={() => serverLogout('Server Force Logout', '/api/debug/force-logout')}
        >
          Server Force Logout
        </Button>
        <Button variant="secondary" onClick={clientForceClear}>
          Client Force Clear
        </Button>
        <Button asChild variant="outline">
          <a href={GITHUB_SIGN_IN_PATH}>
            <GithubIcon />
            Login with GitHub
          </a>
        </Button>
      </SectionCard>

      {outcomes.length > 0 && (
        <SectionCard title="Results">
          <ul className="space-y-2 text-sm">
            {outcomes.map((outcome, index) => (
              <li key={index} className="flex gap-3">
                <span className="tabular-nums text-muted-foreground">{outcome.at}</span>
                <span className="font-medium">{outcome.action}</span>
                <span className={outcome.ok ? '' : 'text-destructive'}>{outcome.detail}</span>
              </li>
            ))}
          </ul>
        </SectionCard>
      )}
    </div>
  );
}
