import { recoveryCodeRequest, totpCodeRequest } from '@contract/security';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { CURRENT_USER_PATH } from '../../lib/current-user';
import { signInWithPasskey } from '../../lib/passkeys';
import { useSchemaForm } from '../../lib/schema-form';

// The verify step of a sign-in whose second factor is pending (issue 33 item 5): a passkey, an authenticator code or
// a recovery code. Loaded only when a session needs it, not with every first page.

type CodeRequest = z.output<typeof recoveryCodeRequest>;

export default function VerifySecondFactor({ methods }: { methods: string[] }) {
  const queryClient = useQueryClient();
  // The server's refusal of the last attempt, whichever factor it was.
  const [error, setError] = useState<string | null>(null);
  const done = async () => {
    setError(null);
    await queryClient.invalidateQueries();
    await queryClient.refetchQueries({ queryKey: [CURRENT_USER_PATH] });
  };
  const onError = (cause: unknown) => setError(errorMessage(cause, 'That did not work. Please try again.'));
  const passkey = useMutation({ mutationFn: signInWithPasskey, onSuccess: done, onError });
  const totp = useMutation({
    mutationFn: (input: CodeRequest) => apiRequest('POST', '/api/auth/totp/verify', input),
    onSuccess: done,
    onError,
  });
  const recovery = useMutation({
    mutationFn: (input: CodeRequest) => apiRequest('POST', '/api/auth/recovery-codes/verify', input),
    onSuccess: done,
    onError,
  });
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
            <CodeForm
              schema={totpCodeRequest}
              id="totp-code"
              label="Authenticator code"
              minimumLength={6}
              input={{ inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 8 }}
              isSending={totp.isPending}
              onSubmit={totp.mutate}
            >
              Verify Code
            </CodeForm>
          )}
          {methods.includes('recovery_code') && (
            <CodeForm
              schema={recoveryCodeRequest}
              id="recovery-code"
              label="Recovery code"
              minimumLength={1}
              input={{ autoComplete: 'off', maxLength: 40 }}
              isSending={recovery.isPending}
              onSubmit={recovery.mutate}
            >
              Use Recovery Code
            </CodeForm>
          )}
          <p className="text-xs text-muted-foreground">
            Lost every factor? Only a recovery code or another owner of your organisation can get you back in.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * One code's form, react-hook-form over the contract's request schema (issue 29 item 7): the code is checked as the
 * route will check it, and what is sent is the schema's output (trimmed, an authenticator code without its spaces).
 */
function CodeForm({
  schema,
  id,
  label,
  minimumLength,
  input,
  isSending,
  onSubmit,
  children,
}: {
  schema: z.ZodType<CodeRequest, { code: string }>;
  id: string;
  label: string;
  /** The button stays disabled until the trimmed code is this long. */
  minimumLength: number;
  input: React.ComponentProps<typeof Input>;
  isSending: boolean;
  onSubmit: (request: CodeRequest) => void;
  children: React.ReactNode;
}) {
  const form = useSchemaForm(schema, { code: '' });
  const code = form.watch('code');
  return (
    <form className="grid gap-2" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <FormField id={id} label={label} className="grid gap-2 space-y-0" error={form.formState.errors.code?.message}>
        {(control) => <Input {...control} {...input} {...form.register('code')} />}
      </FormField>
      <Button type="submit" variant="outline" disabled={isSending || code.trim().length < minimumLength}>
        {children}
      </Button>
    </form>
  );
}
