import {
  LOST_FACTORS_NOTICE,
  RECOVERY_CODE_COUNT,
  type SecurityOverview,
  type SignedInSession,
} from '@contract/security';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format-date';
import { PasskeysCard } from './passkeys-card';
import { failed, SECURITY_PATH, SESSIONS_PATH, useRefresh } from './security-hooks';
import { TotpCard } from './totp-card';

// The Security page (issue 33 item 5): the person's passkeys, authenticator app, recovery codes and signed-in sessions.

export function SecurityPage() {
  const overview = useQuery({ queryKey: [SECURITY_PATH], queryFn: getJson<SecurityOverview> });
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <div className="container mx-auto max-w-3xl space-y-6 px-4 py-8">
      <PageHeading title="Security">How you sign in, and where you are signed in.</PageHeading>
      <p
        className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
        data-testid="lost-factors-notice"
      >
        {LOST_FACTORS_NOTICE}
      </p>
      {overview.data?.secondFactorRequired && overview.data.passkeys.length === 0 && !overview.data.totpEnabled && (
        <p className="rounded-md border border-destructive/50 p-3 text-sm" role="alert">
          Your account must have a second factor: add a passkey or set up an authenticator app to continue.
        </p>
      )}
      {codes && <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />}
      {overview.isLoading ? (
        <Loader2 className="animate-spin" aria-label="Loading" />
      ) : overview.data ? (
        <>
          <PasskeysCard overview={overview.data} onCodes={setCodes} />
          <TotpCard overview={overview.data} onCodes={setCodes} />
          <RecoveryCodesCard overview={overview.data} onCodes={setCodes} />
        </>
      ) : (
        <p className="text-destructive">{errorMessage(overview.error, 'Failed to load your security settings')}</p>
      )}
      <SessionsCard />
    </div>
  );
}

function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Card data-testid="recovery-codes">
      <CardHeader>
        <CardTitle>Your recovery codes</CardTitle>
        <CardDescription>
          Each code signs you in once when you cannot use your passkey or authenticator app. They are shown only now:
          write them down or store them in a password manager.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm">
          {codes.map((code) => (
            <li key={code} data-testid="recovery-code">
              {code}
            </li>
          ))}
        </ul>
        <Button onClick={onDone}>I have saved them</Button>
      </CardContent>
    </Card>
  );
}
function RecoveryCodesCard({ overview, onCodes }: { overview: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const refresh = useRefresh();
  const regenerate = useMutation({
    mutationFn: () => apiRequest<{ codes: string[] }>('POST', '/api/auth/recovery-codes'),
    onSuccess: async (result) => {
      onCodes(result.codes);
      await refresh();
    },
    onError: failed,
  });
  const hasFactor = overview.passkeys.length > 0 || overview.totpEnabled;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recovery Codes</CardTitle>
        <CardDescription>
          <span data-testid="recovery-codes-remaining">
            {overview.recoveryCodesRemaining} of {RECOVERY_CODE_COUNT} recovery codes left.
          </span>{' '}
          New codes replace every old one.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          variant="outline"
          disabled={!hasFactor || regenerate.isPending}
          onClick={() => {
            if (window.confirm('Make new recovery codes? The old ones stop working.')) regenerate.mutate();
          }}
        >
          Regenerate Recovery Codes
        </Button>
      </CardContent>
    </Card>
  );
}

function SessionsCard() {
  const refresh = useRefresh();
  const sessions = useQuery({ queryKey: [SESSIONS_PATH], queryFn: getJson<SignedInSession[]> });
  const signOut = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/auth/sessions/${id}`),
    onSuccess: refresh,
    onError: failed,
  });
  const signOutOthers = useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/sessions/sign-out-others'),
    onSuccess: refresh,
    onError: failed,
  });
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Signed-in Sessions</CardTitle>
        <CardDescription>Where your account is signed in. Sign out any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul className="divide-y">
          {(sessions.data ?? []).map((session) => (
            <li
              key={session.id}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="session"
            >
              <div>
                <p className="font-medium">
                  {session.device} {session.current && <Badge variant="secondary">This device</Badge>}
                </p>
                <p className="text-xs text-muted-foreground">
                  {session.network ?? 'Unknown network'} · last seen {formatDateTime(session.lastSeenAt)}
                </p>
              </div>
              {!session.current && (
                <Button variant="outline" size="sm" onClick={() => signOut.mutate(session.id)}>
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
        <Button
          variant="outline"
          disabled={others === 0 || signOutOthers.isPending}
          onClick={() => signOutOthers.mutate()}
        >
          Sign out all other sessions
        </Button>
      </CardContent>
    </Card>
  );
}
