import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, Mail, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Textarea } from '../../components/ui/textarea';
import { errorMessage } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { TEMPORARY_LICENSE_DURATIONS_DAYS } from '../../lib/constants';
import { hasNothingLoaded } from '../../lib/query-state';
import { EmailDeliveryNote } from './email-delivery-note';
import { emptyTemporaryLicenseForm, type TemporaryLicenseFormValues, temporaryLicenseForm } from './license-forms';
import {
  type LicensedPackage,
  type TemporaryLicense,
  useCreateTemporaryLicense,
  useRevokeTemporaryLicense,
  useTemporaryLicenses,
} from './license-hooks';
import {
  canRevoke,
  daysLeftText,
  daysLeftTone,
  daysLeftToneClass,
  durationLabel,
  formatDate,
  formatDateTime,
  temporaryLicenseBadge,
} from './license-rules';

/** Temporary Licenses of one package (spec seller-app §2, §4, §5): grant trial access by e-mail, revoke it. */
export function TemporaryLicensesDialog({ pkg, onClose }: { pkg: LicensedPackage | undefined; onClose: () => void }) {
  return (
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Temporary Licenses</DialogTitle>
          <DialogDescription>
            Grant time-limited access to <span className="font-mono text-foreground">{pkg?.packageName}</span>. The
            license holder receives the repository URL, a token and the setup commands by e-mail.
          </DialogDescription>
        </DialogHeader>
        {pkg && <TemporaryLicenses key={pkg.id} pkg={pkg} />}
      </DialogContent>
    </Dialog>
  );
}

function TemporaryLicenses({ pkg }: { pkg: LicensedPackage }) {
  const licenses = useTemporaryLicenses(pkg.id);
  const [revoking, setRevoking] = useState<TemporaryLicense>();
  const revoke = useRevokeTemporaryLicense(pkg);
  const list = licenses.data ?? [];

  return (
    <div className="space-y-6">
      <CreateLicenseForm pkg={pkg} />
      <section className="space-y-3" aria-labelledby="temporary-licenses-list">
        <h3 id="temporary-licenses-list" className="text-sm font-semibold">
          Licenses{licenses.data ? ` (${list.length})` : ''}
        </h3>
        {licenses.isLoading ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" /> Loading licenses...
          </p>
        ) : hasNothingLoaded(licenses) ? (
          <p className="text-sm text-destructive">{errorMessage(licenses.error, 'Failed to load licenses')}</p>
        ) : list.length === 0 ? (
          <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
            No temporary licenses yet.
          </p>
        ) : (
          <ul className="divide-y rounded-md border">
            {list.map((license) => (
              <LicenseRow key={license.id} license={license} onRevoke={() => setRevoking(license)} />
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={Boolean(revoking)}
        onOpenChange={(open) => !open && setRevoking(undefined)}
        variant="destructive"
        title="Revoke License"
        description={`${revoking?.email} loses access to ${pkg.packageName} on their next Composer request.`}
        confirmText="Revoke"
        isPending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(undefined) })}
      />
    </div>
  );
}

function CreateLicenseForm({ pkg }: { pkg: LicensedPackage }) {
  const create = useCreateTemporaryLicense(pkg);
  const form = useForm<TemporaryLicenseFormValues, unknown, z.output<typeof temporaryLicenseForm>>({
    resolver: zodResolver(temporaryLicenseForm),
    defaultValues: emptyTemporaryLicenseForm,
  });
  const { errors } = form.formState;
  const email = form.watch('email');
  const submit = form.handleSubmit((input) =>
    create.mutate(input, { onSuccess: () => form.reset(emptyTemporaryLicenseForm) }),
  );

  return (
    <form onSubmit={submit} className="space-y-4 rounded-md border bg-muted/30 p-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <FormField id="temporary-license-email" label="Email *" error={errors.email?.message}>
          {(control) => (
            <Input
              {...control}
              type="email"
              placeholder="customer@example.com"
              autoComplete="off"
              {...form.register('email')}
            />
          )}
        </FormField>
        <FormField id="temporary-license-duration" label="Duration">
          {(control) => (
            <NativeSelect {...control} {...form.register('durationDays', { valueAsNumber: true })}>
              {TEMPORARY_LICENSE_DURATIONS_DAYS.map((days) => (
                <option key={days} value={days}>
                  {durationLabel(days)}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </div>
      <FormField id="temporary-license-note" label="Note (optional)" error={errors.note?.message}>
        {(control) => (
          <Textarea {...control} placeholder="e.g. Evaluation for Acme Corp" rows={2} {...form.register('note')} />
        )}
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={!email.trim() || create.isPending}>
          {create.isPending ? <Loader2 className="animate-spin" /> : <Mail />}
          Create License
        </Button>
      </div>
    </form>
  );
}

function LicenseRow({ license, onRevoke }: { license: TemporaryLicense; onRevoke: () => void }) {
  const badge = temporaryLicenseBadge(license);
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 p-3" data-testid="temporary-license">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium [overflow-wrap:anywhere]">{license.email}</span>
          {badge === 'Active' && <Badge className="bg-green-600 text-white">Active</Badge>}
          {badge === 'Expired' && <Badge variant="secondary">Expired</Badge>}
          {badge === 'Revoked' && <Badge variant="destructive">Revoked</Badge>}
          {badge !== 'Revoked' && (
            <span className={cn('text-xs font-medium', daysLeftToneClass[daysLeftTone(license.daysRemaining)])}>
              {daysLeftText(license)}
            </span>
          )}
        </div>
        <p className="text-xs text-muted-foreground">
          Created {formatDate(license.createdAt)}
          {license.expiresAt && ` · Expires ${formatDateTime(license.expiresAt)}`}
          {' · '}
          {license.lastUsedAt ? `Last used ${formatDateTime(license.lastUsedAt)}` : 'Never used'}
        </p>
        {license.note && <p className="text-xs italic text-muted-foreground">{license.note}</p>}
        <EmailDeliveryNote delivery={license.emailDelivery} />
      </div>
      {canRevoke(license) && (
        <Button variant="outline" size="sm" onClick={onRevoke} className="text-destructive hover:text-destructive">
          <ShieldOff /> Revoke
        </Button>
      )}
    </li>
  );
}
