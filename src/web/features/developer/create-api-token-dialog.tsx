import { AlertTriangle, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import {
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_PERMISSION_DESCRIPTIONS,
  type CreatedApiToken,
  createApiTokenInput,
} from '../../../contract/developer';
import { ChoiceCard, ChoiceSet } from '../../components/choice-card';
import { CopyButton } from '../../components/copy-button';
import { DialogFormButtons, DialogHeading } from '../../components/form-dialog';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { intoContract } from '../../lib/contract-form';
import { useSchemaForm } from '../../lib/schema-form';
import { useCreateApiToken } from './api-token-hooks';
import {
  API_TOKEN_PERMISSIONS,
  type ApiTokenPermission,
  canCreateToken,
  expiryProblem,
  expiryToIso,
  permissionLabel,
  toDateTimeLocal,
  togglePermission,
} from './api-token-rules';

/** Create Token (spec admin §2, §5): name, permissions, optional expiry; then the token, shown once. */
export function CreateApiTokenDialog({
  open,
  onOpenChange,
  renderQuickStart,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A ready-to-paste request with the new token in it. */
  renderQuickStart: (token: string) => React.ReactNode;
}) {
  const [created, setCreated] = useState<CreatedApiToken>();
  const close = () => {
    onOpenChange(false);
    setCreated(undefined);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-w-2xl">
        {created ? (
          <CreatedToken created={created} onDone={close} quickStart={renderQuickStart(created.token)} />
        ) : (
          // Keyed by open so that a new dialog starts empty.
          <CreateTokenForm key={String(open)} onCreated={setCreated} onCancel={close} />
        )}
      </DialogContent>
    </Dialog>
  );
}

type TokenFormValues = { name: string; permissions: ApiTokenPermission[]; expiration: string };

const tokenFormSchema = z
  .object({ name: z.string(), permissions: z.array(z.enum(API_TOKEN_PERMISSIONS)), expiration: z.string() })
  .superRefine(({ expiration }, context) => {
    const problem = expiryProblem(expiration, new Date());
    if (problem) context.addIssue({ code: 'custom', path: ['expiration'], message: problem });
  })
  .transform(
    intoContract(createApiTokenInput, ({ name, permissions, expiration }: TokenFormValues) => ({
      name,
      permissions,
      expiresAt: expiryToIso(expiration) ?? null,
    })),
  );

function CreateTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (token: CreatedApiToken) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiToken();
  // react-hook-form (issue 29 item 7): the expiry is checked against the moment of submission, then the values are
  // turned into the contract's input and checked with its schema, as the server will.
  const form = useSchemaForm(tokenFormSchema, { name: '', permissions: [], expiration: '' });
  const { errors } = form.formState;
  const [name, permissions] = form.watch(['name', 'permissions']);
  // The minimum is "now" when the dialog opened; the check uses the moment of submission.
  const [minimum] = useState(() => toDateTimeLocal(new Date()));

  const submit = form.handleSubmit((input) => {
    if (canCreateToken(name, permissions)) create.mutate(input, { onSuccess: onCreated });
  });

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <DialogHeading
        title="Create API Token"
        description="Give the token only the permissions your integration needs. It is shown once, right after you create it."
      />
      <FormInput
        form={form}
        name="name"
        id="api-token-name"
        label="Token Name"
        placeholder="e.g. Store integration"
        maxLength={API_TOKEN_NAME_MAX_LENGTH}
        autoComplete="off"
      />
      <ChoiceSet legend="Permissions" error={errors.permissions?.message}>
        {API_TOKEN_PERMISSIONS.map((permission) => (
          <ChoiceCard
            key={permission}
            input={{
              type: 'checkbox',
              checked: permissions.includes(permission),
              onChange: () =>
                form.setValue('permissions', togglePermission(permissions, permission), {
                  shouldValidate: form.formState.isSubmitted,
                }),
            }}
            label={permission}
            labelClassName="font-mono text-xs font-semibold"
            description={API_TOKEN_PERMISSION_DESCRIPTIONS[permission]}
          />
        ))}
      </ChoiceSet>
      <FormInput
        form={form}
        name="expiration"
        id="api-token-expiration"
        label="Expiration (optional)"
        hint="Leave empty for a token that never expires."
        type="datetime-local"
        min={minimum}
      />
      <DialogFormButtons
        submitLabel="Create"
        icon={<KeyRound />}
        isPending={create.isPending}
        canSubmit={canCreateToken(name, permissions)}
        onCancel={onCancel}
      />
    </form>
  );
}

function CreatedToken({
  created,
  onDone,
  quickStart,
}: {
  created: CreatedApiToken;
  onDone: () => void;
  quickStart: React.ReactNode;
}) {
  return (
    <div className="min-w-0 space-y-5">
      <DialogHeading
        title="API Token Created"
        description={
          <>
            <span className="font-medium text-foreground">{created.name}</span> can now call the API with{' '}
            {created.permissions.map(permissionLabel).join(', ')}.
          </>
        }
      />
      <div className="flex items-start gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-800 dark:text-amber-300">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>Copy this token now and keep it somewhere safe. It is shown only once: you cannot see it again.</p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="created-api-token">Your API token</Label>
        <div className="flex gap-2">
          <Input
            id="created-api-token"
            readOnly
            value={created.token}
            className="font-mono text-xs"
            onFocus={(event) => event.target.select()}
          />
          <CopyButton
            value={created.token}
            label="Copy token"
            size="default"
            failureTitle="Copy Failed"
            failureMessage="Please copy the token manually"
            className="shrink-0"
          />
        </div>
      </div>
      {quickStart}
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}
