import {
  LOST_FACTORS_NOTICE,
  RECOVERY_CODE_COUNT,
  type SecurityOverview,
  type SignedInSession,
  type TotpEnrolment,
} from '@contract/security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2, ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { CURRENT_USER_PATH } from '../../lib/current-user';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { registerPasskey } from '../../lib/passkeys';

// The Security page (issue 33 item 5): the person's passkeys, authenticator app, recovery codes and signed-in sessions.

const SECURITY_PATH = '/api/auth/security';
const SESSIONS_PATH = '/api/auth/sessions';

function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [SECURITY_PATH] }),
      queryClient.invalidateQueries({ queryKey: [SESSIONS_PATH] }),
      queryClient.invalidateQueries({ queryKey: [CURRENT_USER_PATH] }),
    ]);
}

function failed(error: unknown) {
  toast({ title: 'That did not work', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
}

export function SecurityPage() {
  const overview = useQuery({ queryKey: [SECURITY_PATH], queryFn: getJson<SecurityOverview> });
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <div className="container mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Security</h1>
        <p className="text-muted-foreground">How you sign in, and where you are signed in.</p>
      </div>
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

function PasskeysCard({ overview, onCodes }: { overview: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const refresh = useRefresh();
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => registerPasskey(name.trim() || 'Passkey'),
    onSuccess: async (result) => {
      setName('');
      if (result.recoveryCodes) onCodes(result.recoveryCodes);
      toast({ title: 'Passkey added' });
      await refresh();
    },
    onError: failed,
  });
  const rename = useMutation({
    mutationFn: ({ id, newName }: { id: string; newName: string }) =>
      apiRequest('PATCH', `/api/auth/passkeys/${id}`, { name: newName }),
    onSuccess: refresh,
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/auth/passkeys/${id}`),
    onSuccess: refresh,
    onError: failed,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" /> Passkeys
        </CardTitle>
        <CardDescription>Sign in with your device's fingerprint, face or screen lock, without a link.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {overview.passkeys.length === 0 && <p className="text-sm text-muted-foreground">No passkeys yet.</p>}
        <ul className="divide-y">
          {overview.passkeys.map((passkey) => (
            <li
              key={passkey.id}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="passkey"
            >
              <div>
                <p className="font-medium">{passkey.name}</p>
                <p className="text-xs text-muted-foreground">
                  Added {formatDate(passkey.createdAt)}
                  {passkey.lastUsedAt ? ` · last used ${formatDate(passkey.lastUsedAt)}` : ''}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    const newName = window.prompt('New name for this passkey', passkey.name)?.trim();
                    if (newName) rename.mutate({ id: passkey.id, newName });
                  }}
                >
                  Rename
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    if (window.confirm(`Remove the passkey "${passkey.name}"?`)) remove.mutate(passkey.id);
                  }}
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            add.mutate();
          }}
        >
          <div className="grid gap-1">
            <Label htmlFor="passkey-name">Name</Label>
            <Input
              id="passkey-name"
              value={name}
              maxLength={100}
              placeholder="e.g. MacBook Touch ID"
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending && <Loader2 className="animate-spin" />}
            Add Passkey
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function TotpCard({ overview, onCodes }: { overview: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const refresh = useRefresh();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const begin = useMutation({
    mutationFn: () => apiRequest<TotpEnrolment>('POST', '/api/auth/totp/enrolment'),
    onSuccess: setEnrolment,
    onError: failed,
  });
  const confirm = useMutation({
    mutationFn: () =>
      apiRequest<{ recoveryCodes?: string[] }>('POST', '/api/auth/totp/enrolment/confirm', { code: code.trim() }),
    onSuccess: async (result) => {
      setEnrolment(null);
      setCode('');
      if (result.recoveryCodes) onCodes(result.recoveryCodes);
      toast({ title: 'Authenticator app set up' });
      await refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/auth/totp'),
    onSuccess: refresh,
    onError: failed,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5" /> Authenticator App
          {overview.totpEnabled && <Badge>On</Badge>}
        </CardTitle>
        <CardDescription>
          A six-digit code from an app such as 1Password, Authy or Google Authenticator.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {overview.totpEnabled ? (
          <Button
            variant="outline"
            onClick={() => {
              if (window.confirm('Remove the authenticator app?')) remove.mutate();
            }}
          >
            Remove Authenticator App
          </Button>
        ) : enrolment ? (
          <form
            className="space-y-3"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              confirm.mutate();
            }}
          >
            <p className="text-sm">Scan this code with your authenticator app, then enter the code it shows.</p>
            <img src={enrolment.qrCode} alt="QR code for your authenticator app" className="size-48 bg-white" />
            <p className="text-sm">
              Or type this key: <code data-testid="totp-secret">{enrolment.secret}</code>
            </p>
            <p className="break-all text-xs text-muted-foreground" data-testid="totp-uri">
              {enrolment.uri}
            </p>
            <div className="flex items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor="totp-confirm-code">Code</Label>
                <Input
                  id="totp-confirm-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={8}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                />
              </div>
              <Button type="submit" disabled={confirm.isPending || code.trim().length < 6}>
                Confirm
              </Button>
            </div>
          </form>
        ) : (
          <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
            Set Up Authenticator App
          </Button>
        )}
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
