import {
  type CreatedHolderToken,
  createHolderTokenInput,
  HOLDER_TOKEN_NAME_MAX,
  type HolderToken,
  holderTokenKindLabels,
  holderTokenKindValues,
} from '@contract/holder-tokens';
import { ConfirmDialog } from '@web/components/confirm-dialog';
import { CopyButton } from '@web/components/copy-button';
import { FormAlert, FormInput, FormSelect } from '@web/components/form-field';
import { FailureAlert } from '@web/components/load-error';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { errorMessage } from '@web/lib/api-error';
import { formatDateTime } from '@web/lib/format-date';
import { useSchemaForm } from '@web/lib/schema-form';
import { Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useCreateHolderToken, useHolderTokens, useRevokeHolderToken } from './holder-tokens-hooks';
import { RotateTokenDialog } from './rotate-token-dialog';

// A holder's named Composer tokens (issue 32): the portal lists, creates (shown once, with copy), rotates and revokes
// them; Management (`canCreate` false) lists them with their state and revokes one. Never a token after it is shown.

const stateLabels: Record<HolderToken['state'], string> = {
  active: 'Active',
  overlap: 'Rotated',
  leaked: 'Leaked',
  expired: 'Expired',
  revoked: 'Revoked',
  replaced: 'Replaced',
};

const isLive = (token: HolderToken) => ['active', 'overlap', 'leaked'].includes(token.state);

export function HolderTokensPanel({ basePath, canCreate }: { basePath: string; canCreate: boolean }) {
  const tokens = useHolderTokens(basePath);
  const [shown, setShown] = useState<CreatedHolderToken>();
  return (
    <div className="space-y-4" data-testid="holder-tokens">
      {shown && <NewTokenNotice token={shown} onDone={() => setShown(undefined)} />}
      <FailureAlert error={tokens.error} fallback="The tokens could not be loaded." />
      {tokens.data && tokens.data.length === 0 && <p className="text-sm text-muted-foreground">No tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="space-y-2" aria-label="Composer tokens">
          {tokens.data.map((token) => (
            <li key={token.id}>
              <TokenEntry basePath={basePath} token={token} canRotate={canCreate} onRotated={setShown} />
            </li>
          ))}
        </ul>
      )}
      {canCreate && <NewTokenForm basePath={basePath} onCreated={setShown} />}
    </div>
  );
}

function NewTokenNotice({ token, onDone }: { token: CreatedHolderToken; onDone: () => void }) {
  return (
    <div className="space-y-2 rounded-md border border-primary p-4" data-testid="new-holder-token" role="status">
      <p className="text-sm font-medium">Your new token “{token.name}”. Copy it now: it is not shown again.</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-muted p-2 font-mono text-xs" data-testid="new-token-value">
          {token.token}
        </code>
        <CopyButton value={token.token} />
      </div>
      <Button variant="ghost" size="sm" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function stateText(token: HolderToken): string {
  if ((token.state === 'overlap' || token.state === 'leaked') && token.expiresAt) {
    return `Stops working at ${formatDateTime(token.expiresAt)}`;
  }
  if (token.state === 'active' && token.expiresAt) return `Expires ${formatDateTime(token.expiresAt)}`;
  return stateLabels[token.state];
}

function TokenEntry({
  basePath,
  token,
  canRotate,
  onRotated,
}: {
  basePath: string;
  token: HolderToken;
  canRotate: boolean;
  onRotated: (created: CreatedHolderToken) => void;
}) {
  const revoke = useRevokeHolderToken(basePath);
  const [confirming, setConfirming] = useState<'revoke' | 'rotate'>();
  return (
    <div className="flex flex-wrap items-start justify-between gap-2 rounded-md border p-3" data-testid="holder-token">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium [overflow-wrap:anywhere]">
          {token.name}{' '}
          <Badge variant={isLive(token) ? 'secondary' : 'outline'} data-testid="holder-token-state">
            {stateLabels[token.state]}
          </Badge>
        </p>
        <p className="text-xs text-muted-foreground">
          {holderTokenKindLabels[token.kind]} · ends in {token.tokenHint ?? '…'} · created{' '}
          {formatDateTime(token.createdAt)} ·{' '}
          {token.lastUsedAt ? `last used ${formatDateTime(token.lastUsedAt)}` : 'never used'}
        </p>
        <p className="text-xs text-muted-foreground" data-testid="holder-token-expiry">
          {stateText(token)}
          {token.leakUrl ? ` · found at ${token.leakUrl}` : ''}
        </p>
        <FailureAlert error={revoke.error} fallback="The token could not be changed." className="text-xs" />
      </div>
      {isLive(token) && (
        <div className="flex gap-2">
          {canRotate && token.state !== 'overlap' && (
            <Button variant="outline" size="sm" onClick={() => setConfirming('rotate')}>
              <RefreshCw aria-hidden="true" /> Rotate
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => setConfirming('revoke')} disabled={revoke.isPending}>
            <Trash2 aria-hidden="true" /> Revoke
          </Button>
        </div>
      )}
      <RotateTokenDialog
        basePath={basePath}
        token={token}
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : undefined)}
        onRotated={onRotated}
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        onOpenChange={(open) => setConfirming(open ? 'revoke' : undefined)}
        title={`Revoke “${token.name}”?`}
        description="It stops working at its next request. Other tokens keep working."
        confirmText="Revoke"
        variant="destructive"
        isPending={revoke.isPending}
        onConfirm={() => revoke.mutate(token.id, { onSettled: () => setConfirming(undefined) })}
      />
    </div>
  );
}

function NewTokenForm({ basePath, onCreated }: { basePath: string; onCreated: (token: CreatedHolderToken) => void }) {
  const create = useCreateHolderToken(basePath);
  // react-hook-form with the contract's schema (issue 29): the server's rules checked before sending, its refusal
  // shown as the form's error.
  const form = useSchemaForm(createHolderTokenInput, { name: '', kind: 'developer' });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) =>
    create.mutateAsync(input).then(
      (created) => {
        form.reset({ name: '', kind: input.kind });
        onCreated(created);
      },
      (error: unknown) =>
        form.setError('root.server', { message: errorMessage(error, 'The token could not be created.') }),
    ),
  );
  return (
    <form onSubmit={submit} className="space-y-3 rounded-md border p-4" noValidate data-testid="holder-token-form">
      <p className="text-sm font-medium">Create a token</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormInput
          form={form}
          name="name"
          id="holder-token-name"
          label="Name"
          maxLength={HOLDER_TOKEN_NAME_MAX}
          placeholder="Ana's laptop, GitHub Actions, Production deploy"
        />
        <FormSelect
          form={form}
          name="kind"
          id="holder-token-kind"
          label="Kind"
          values={holderTokenKindValues}
          optionLabel={(value) => holderTokenKindLabels[value]}
        />
      </div>
      <FormAlert message={errors.root?.server?.message} />
      <Button type="submit" size="sm" disabled={create.isPending}>
        <Plus aria-hidden="true" /> Create token
      </Button>
    </form>
  );
}
