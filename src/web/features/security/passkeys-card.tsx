import { passkeyRegistrationRequest, type SecurityOverview } from '@contract/security';
import { useMutation } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { z } from 'zod';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '../../components/ui/card';
import { apiRequest } from '../../lib/api-client';
import { intoContract } from '../../lib/contract-form';
import { formatDate } from '../../lib/format-date';
import { registerPasskey } from '../../lib/passkeys';
import { useSchemaForm } from '../../lib/schema-form';
import { failed, useRefresh, useSecondFactorAdded } from './security-hooks';

// The passkey's name, optional: an empty one becomes the contract's default ("Passkey").
const passkeyNameForm = z.object({ name: z.string() }).transform(
  intoContract(passkeyRegistrationRequest.pick({ name: true }), ({ name }: { name: string }) => ({
    name: name.trim() || undefined,
  })),
);

export function PasskeysCard({
  overview,
  onCodes,
}: {
  overview: SecurityOverview;
  onCodes: (codes: string[]) => void;
}) {
  const refresh = useRefresh();
  const factorAdded = useSecondFactorAdded(onCodes);
  // react-hook-form over the contract's registration schema (issue 29 item 7).
  const form = useSchemaForm(passkeyNameForm, { name: '' });
  const add = useMutation({
    mutationFn: ({ name }: z.output<typeof passkeyNameForm>) => registerPasskey(name),
    onSuccess: async (result) => {
      form.reset();
      await factorAdded('Passkey added', result);
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
        <CardIconTitle icon={KeyRound}>Passkeys</CardIconTitle>
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
          onSubmit={form.handleSubmit((input) => add.mutate(input))}
          noValidate
        >
          <FormInput
            form={form}
            name="name"
            id="passkey-name"
            label="Name"
            fieldClassName="grid gap-1 space-y-0"
            maxLength={100}
            placeholder="e.g. MacBook Touch ID"
          />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending && <Loader2 className="animate-spin" />}
            Add Passkey
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
