import { AlertTriangle, KeyRound, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_PERMISSION_DESCRIPTIONS,
  type CreatedApiToken,
} from '../../../contract/developer';
import { CopyButton } from '../../components/copy-button';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
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

function CreateTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (token: CreatedApiToken) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ApiTokenPermission[]>([]);
  const [expiration, setExpiration] = useState('');
  // The minimum is "now" when the dialog opened; the check below uses the moment of submission.
  const [minimum] = useState(() => toDateTimeLocal(new Date()));
  const [expirationError, setExpirationError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canCreateToken(name, permissions)) return;
    const problem = expiryProblem(expiration, new Date());
    if (problem) {
      setExpirationError(problem);
      return;
    }
    create.mutate(
      { name: name.trim(), permissions, expiresAt: expiryToIso(expiration) ?? null },
      { onSuccess: onCreated },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <DialogHeader>
        <DialogTitle>Create API Token</DialogTitle>
        <DialogDescription>
          Give the token only the permissions your integration needs. It is shown once, right after you create it.
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="api-token-name">Token Name</Label>
        <Input
          id="api-token-name"
          placeholder="e.g. Store integration"
          value={name}
          maxLength={API_TOKEN_NAME_MAX_LENGTH}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Permissions</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {API_TOKEN_PERMISSIONS.map((permission) => (
            <label
              key={permission}
              className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-primary/5"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={permissions.includes(permission)}
                onChange={() => setPermissions((current) => togglePermission(current, permission))}
              />
              <span className="min-w-0">
                <span className="block font-mono text-xs font-semibold">{permission}</span>
                <span className="block text-xs text-muted-foreground">
                  {API_TOKEN_PERMISSION_DESCRIPTIONS[permission]}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="space-y-2">
        <Label htmlFor="api-token-expiration">Expiration (optional)</Label>
        <Input
          id="api-token-expiration"
          type="datetime-local"
          min={minimum}
          value={expiration}
          onChange={(event) => {
            setExpiration(event.target.value);
            setExpirationError(undefined);
          }}
          aria-invalid={Boolean(expirationError)}
          aria-describedby="api-token-expiration-hint"
        />
        <p
          id="api-token-expiration-hint"
          className={expirationError ? 'text-sm text-destructive' : 'text-xs text-muted-foreground'}
        >
          {expirationError ?? 'Leave empty for a token that never expires.'}
        </p>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canCreateToken(name, permissions) || create.isPending}>
          {create.isPending ? <Loader2 className="animate-spin" /> : <KeyRound />}
          Create
        </Button>
      </DialogFooter>
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
      <DialogHeader>
        <DialogTitle>API Token Created</DialogTitle>
        <DialogDescription>
          <span className="font-medium text-foreground">{created.name}</span> can now call the API with{' '}
          {created.permissions.map(permissionLabel).join(', ')}.
        </DialogDescription>
      </DialogHeader>
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
