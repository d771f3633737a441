import { type SecurityOverview, type TotpEnrolment, totpCodeRequest } from '@contract/security';
import { useMutation } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { FormInput } from '../../components/form-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '../../components/ui/card';
import { apiRequest } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/schema-form';
import { failed, useRefresh, useSecondFactorAdded } from './security-hooks';

export function TotpCard({ overview, onCodes }: { overview: SecurityOverview; onCodes: (codes: string[]) => void }) {
  const refresh = useRefresh();
  const factorAdded = useSecondFactorAdded(onCodes);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  // react-hook-form over the contract's code schema (issue 29 item 7): what is sent is its output, without spaces.
  const form = useSchemaForm(totpCodeRequest, { code: '' });
  const code = form.watch('code');
  const begin = useMutation({
    mutationFn: () => apiRequest<TotpEnrolment>('POST', '/api/auth/totp/enrolment'),
    onSuccess: setEnrolment,
    onError: failed,
  });
  const confirm = useMutation({
    mutationFn: (input: z.output<typeof totpCodeRequest>) =>
      apiRequest<{ recoveryCodes?: string[] }>('POST', '/api/auth/totp/enrolment/confirm', input),
    onSuccess: async (result) => {
      setEnrolment(null);
      form.reset();
      await factorAdded('Authenticator app set up', result);
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
        <CardIconTitle icon={ShieldCheck}>
          Authenticator App
          {overview.totpEnabled && <Badge>On</Badge>}
        </CardIconTitle>
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
          <form className="space-y-3" onSubmit={form.handleSubmit((input) => confirm.mutate(input))} noValidate>
            <p className="text-sm">Scan this code with your authenticator app, then enter the code it shows.</p>
            <img src={enrolment.qrCode} alt="QR code for your authenticator app" className="size-48 bg-white" />
            <p className="text-sm">
              Or type this key: <code data-testid="totp-secret">{enrolment.secret}</code>
            </p>
            <p className="break-all text-xs text-muted-foreground" data-testid="totp-uri">
              {enrolment.uri}
            </p>
            <div className="flex items-end gap-2">
              <FormInput
                form={form}
                name="code"
                id="totp-confirm-code"
                label="Code"
                fieldClassName="grid gap-1 space-y-0"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
              />
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
