import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { CURRENT_USER_PATH } from '../../lib/current-user';
import { signInWithPasskey } from '../../lib/passkeys';

// The verify step of a sign-in whose second factor is pending (issue 33 item 5): a passkey, an authenticator code or
// a recovery code. Loaded only when a session needs it, not with every first page.

export default function VerifySecondFactor({ methods }: { methods: string[] }) {
  const queryClient = useQueryClient();
  const [totpCode, setTotpCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const done = async () => {
    setError(null);
    await queryClient.invalidateQueries();
    await queryClient.refetchQueries({ queryKey: [CURRENT_USER_PATH] });
  };
  const onError = (cause: unknown) => setError(errorMessage(cause, 'That did not work. Please try again.'));
  const passkey = useMutation({ mutationFn: signInWithPasskey, onSuccess: done, onError });
  const totp = useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/totp/verify', { code: totpCode.trim() }),
    onSuccess: done,
    onError,
  });
  const recovery = useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/recovery-codes/verify', { code: recoveryCode.trim() }),
    onSuccess: done,
    onError,
  });
  const submit = (mutate: () => void) => (event: FormEvent) => {
    event.preventDefault();
    mutate();
  };
  return (
    <div className="container mx-auto flex max-w-md flex-col gap-4 px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>Verify it's you</CardTitle>
          <CardDescription>Your account has a second factor. Use it to finish signing in.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {error && (
            <p className="text-sm text-destructive" role="alert" data-testid="second-factor-error">
              {error}
            </p>
          )}
          {methods.includes('passkey') && (
            <Button className="w-full" onClick={() => passkey.mutate()} disabled={passkey.isPending}>
              {passkey.isPending ? <Loader2 className="animate-spin" /> : <KeyRound />}
              Use a Passkey
            </Button>
          )}
          {methods.includes('totp') && (
            <form className="grid gap-2" onSubmit={submit(() => totp.mutate())}>
              <Label htmlFor="totp-code">Authenticator code</Label>
              <Input
                id="totp-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
                value={totpCode}
                onChange={(event) => setTotpCode(event.target.value)}
              />
              <Button type="submit" variant="outline" disabled={totp.isPending || totpCode.trim().length < 6}>
                Verify Code
              </Button>
            </form>
          )}
          {methods.includes('recovery_code') && (
            <form className="grid gap-2" onSubmit={submit(() => recovery.mutate())}>
              <Label htmlFor="recovery-code">Recovery code</Label>
              <Input
                id="recovery-code"
                autoComplete="off"
                maxLength={40}
                value={recoveryCode}
                onChange={(event) => setRecoveryCode(event.target.value)}
              />
              <Button type="submit" variant="outline" disabled={recovery.isPending || !recoveryCode.trim()}>
                Use Recovery Code
              </Button>
            </form>
          )}
          <p className="text-xs text-muted-foreground">
            Lost every factor? Only a recovery code or another owner of your organisation can get you back in.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
