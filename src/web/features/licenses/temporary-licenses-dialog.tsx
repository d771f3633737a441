import { Loader2, Mail, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { TitledDialog } from '../../components/form-dialog';
import { FormField, FormSelect } from '../../components/form-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/cn';
import { TEMPORARY_LICENSE_DURATIONS_DAYS } from '../../lib/constants';
import { useSchemaForm } from '../../lib/schema-form';
import { EmailDeliveryNote } from './email-delivery-note';
import { emptyTemporaryLicenseForm, temporaryLicenseForm } from './license-forms';
import {
  type LicensedPackage,
  type TemporaryLicense,
  useCreateTemporaryLicense,
  useRevokeTemporaryLicense,
  useTemporaryLicenses,
} from './license-hooks';
import { HolderEmailField, LicenseListSection, RevokeLicenseConfirm } from './license-list-parts';
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
    <TitledDialog
      open={Boolean(pkg)}
      onClose={onClose}
      title="Temporary Licenses"
      description={
        <>
          Grant time-limited access to <span className="font-mono text-foreground">{pkg?.packageName}</span>. The
          license holder receives the repository URL, a token and the setup commands by e-mail.
        </>
      }
    >
      {pkg && <TemporaryLicenses key={pkg.id} pkg={pkg} />}
    </TitledDialog>
  );
}

function TemporaryLicenses({ pkg }: { pkg: LicensedPackage }) {
  const licenses = useTemporaryLicenses(pkg.id);
  const [revoking, setRevoking] = useState<TemporaryLicense>();
  const revoke = useRevokeTemporaryLicense(pkg);

  return (
    <div className="space-y-6">
      <CreateLicenseForm pkg={pkg} />
      <LicenseListSection
        id="temporary-licenses-list"
        title="Licenses"
        licenses={licenses}
        emptyText="No temporary licenses yet."
      >
        {(list) =>
          list.map((license) => <LicenseRow key={license.id} license={license} onRevoke={() => setRevoking(license)} />)
        }
      </LicenseListSection>
      <RevokeLicenseConfirm
        email={revoking?.email}
        packageName={pkg.packageName}
        isPending={revoke.isPending}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(undefined) })}
      />
    </div>
  );
}

function CreateLicenseForm({ pkg }: { pkg: LicensedPackage }) {
  const create = useCreateTemporaryLicense(pkg);
  const form = useSchemaForm(temporaryLicenseForm, emptyTemporaryLicenseForm);
  const { errors } = form.formState;
  const email = form.watch('email');
  const submit = form.handleSubmit((input) =>
    create.mutate(input, { onSuccess: () => form.reset(emptyTemporaryLicenseForm) }),
  );

  return (
    <form onSubmit={submit} className="space-y-4 rounded-md border bg-muted/30 p-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <HolderEmailField
          id="temporary-license-email"
          error={errors.email?.message}
          registration={form.register('email')}
        />
        <FormSelect
          form={form}
          name="durationDays"
          registerOptions={{ valueAsNumber: true }}
          id="temporary-license-duration"
          label="Duration"
          values={TEMPORARY_LICENSE_DURATIONS_DAYS}
          optionLabel={durationLabel}
        />
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
