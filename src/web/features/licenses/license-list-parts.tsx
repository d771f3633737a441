import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { Input } from '../../components/ui/input';
import { hasNothingLoaded } from '../../lib/query-state';

// What the Licenses and Temporary Licenses dialogs share: the list of a package's licenses with its loading, failed
// and empty states, the revoke confirmation, and the holder's e-mail field.

export function LicenseListSection<License>({
  id,
  title,
  licenses,
  emptyText,
  children,
}: {
  id: string;
  title: string;
  licenses: UseQueryResult<License[]>;
  emptyText: string;
  children: (list: License[]) => ReactNode;
}) {
  const list = licenses.data ?? [];
  return (
    <section className="space-y-3" aria-labelledby={id}>
      <h3 id={id} className="text-sm font-semibold">
        {title}
        {licenses.data ? ` (${list.length})` : ''}
      </h3>
      {licenses.isLoading ? (
        <LoadingLine className="text-sm">Loading licenses...</LoadingLine>
      ) : hasNothingLoaded(licenses) ? (
        <LoadError error={licenses.error} fallback="Failed to load licenses" />
      ) : list.length === 0 ? (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ul className="divide-y rounded-md border">{children(list)}</ul>
      )}
    </section>
  );
}

/** Asks before a license is revoked; open while `email` is set. */
export function RevokeLicenseConfirm({
  email,
  packageName,
  isPending,
  onCancel,
  onConfirm,
}: {
  email: string | undefined;
  packageName: string;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={email !== undefined}
      onOpenChange={(open) => !open && onCancel()}
      variant="destructive"
      title="Revoke License"
      description={`${email} loses access to ${packageName} on their next Composer request.`}
      confirmText="Revoke"
      isPending={isPending}
      onConfirm={onConfirm}
    />
  );
}

/** The holder's e-mail, required ("Email *"): the forms' schema says when it is missing. */
export function HolderEmailField({
  id,
  error,
  registration,
}: {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  return (
    <FormField id={id} label="Email *" error={error}>
      {(control) => (
        <Input {...control} type="email" placeholder="customer@example.com" autoComplete="off" {...registration} />
      )}
    </FormField>
  );
}
