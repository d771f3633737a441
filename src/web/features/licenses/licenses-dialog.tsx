import { CheckCircle2, Pencil, RotateCcw, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { CopyCommand } from '../../components/copy-command';
import { TitledDialog } from '../../components/form-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmailDeliveryNote } from './email-delivery-note';
import { type IssuedLicense, type License, usePackageLicenses, useUpdateLicense } from './lasting-license-hooks';
import type { LicensedPackage } from './license-hooks';
import { LicenseListSection, RevokeLicenseConfirm } from './license-list-parts';
import { downloadsText, formatDate, formatDateTime, grantKindLabels, grantStatusLabel } from './license-rules';
import { EditLicenseForm, IssueLicenseForm } from './license-term-forms';

type Mode = { kind: 'issue' } | { kind: 'edit'; license: License } | { kind: 'issued'; issued: IssuedLicense };

/**
 * Licenses of one package (issue 16): issue a lasting license by e-mail with the same terms the API takes
 * (no expiry or a date, download limit, what ends at expiry, note), change them, revoke or restore.
 */
export function LicensesDialog({ pkg, onClose }: { pkg: LicensedPackage | undefined; onClose: () => void }) {
  return (
    <TitledDialog
      open={Boolean(pkg)}
      onClose={onClose}
      title="Licenses"
      description={
        <>
          Lasting licenses for <span className="font-mono text-foreground">{pkg?.packageName}</span>, for customers who
          paid elsewhere or need terms of their own. Your store can do the same through the API.
        </>
      }
    >
      {pkg && <Licenses key={pkg.id} pkg={pkg} />}
    </TitledDialog>
  );
}

function Licenses({ pkg }: { pkg: LicensedPackage }) {
  const licenses = usePackageLicenses(pkg.id);
  const [mode, setMode] = useState<Mode>({ kind: 'issue' });
  const [revoking, setRevoking] = useState<License>();
  const update = useUpdateLicense(pkg);

  return (
    <div className="min-w-0 space-y-6">
      {mode.kind === 'issue' && (
        <IssueLicenseForm pkg={pkg} onIssued={(issued) => setMode({ kind: 'issued', issued })} />
      )}
      {mode.kind === 'issued' && <IssuedPanel issued={mode.issued} onDone={() => setMode({ kind: 'issue' })} />}
      {mode.kind === 'edit' && (
        <EditLicenseForm
          key={mode.license.id}
          pkg={pkg}
          license={mode.license}
          onDone={() => setMode({ kind: 'issue' })}
        />
      )}
      <LicenseListSection
        id="package-licenses-list"
        title="All licenses"
        licenses={licenses}
        emptyText="No licenses yet."
      >
        {(list) =>
          list.map((license) => (
            <LicenseRow
              key={license.id}
              license={license}
              isBusy={update.isPending}
              onEdit={() => setMode({ kind: 'edit', license })}
              onRevoke={() => setRevoking(license)}
              onRestore={() => update.mutate({ license, changes: { status: 'active' } })}
            />
          ))
        }
      </LicenseListSection>
      <RevokeLicenseConfirm
        email={revoking?.email}
        packageName={pkg.packageName}
        isPending={update.isPending}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() =>
          revoking &&
          update.mutate(
            { license: revoking, changes: { status: 'revoked' } },
            { onSettled: () => setRevoking(undefined) },
          )
        }
      />
    </div>
  );
}

function IssuedPanel({ issued, onDone }: { issued: IssuedLicense; onDone: () => void }) {
  const several = issued.licenses.length > 1;
  return (
    <div className="space-y-3 rounded-md border border-green-600/40 bg-green-600/5 p-4" data-testid="issued-license">
      <p className="flex items-center gap-2 text-sm font-semibold">
        <CheckCircle2 className="size-4 text-green-600" aria-hidden="true" />
        {several
          ? `${issued.licenses.length} licenses issued: ${issued.license.email} may install ${issued.licenses.map((license) => license.packageName).join(', ')}.`
          : `${issued.license.email} may install ${issued.license.packageName}${issued.outcome === 'renewed' ? ' (their existing license took the new terms)' : ''}.`}
      </p>
      <p className="text-sm text-muted-foreground">
        {issued.emailSent
          ? several
            ? 'One e-mail with the repository URL, token and these commands went to them, covering every package.'
            : 'The repository URL, token and these commands were e-mailed to them.'
          : 'No e-mail was sent: give them these commands yourself.'}{' '}
        {issued.composerToken
          ? 'The token is shown here once.'
          : 'They already hold a token for your repository, so YOUR_TOKEN stands for it.'}
      </p>
      <div className="space-y-2">
        {issued.setupCommands.map((command) => (
          <CopyCommand key={command} command={command} />
        ))}
      </div>
      <div className="flex justify-end">
        <Button variant="outline" onClick={onDone}>
          Issue another
        </Button>
      </div>
    </div>
  );
}

function LicenseRow({
  license,
  isBusy,
  onEdit,
  onRevoke,
  onRestore,
}: {
  license: License;
  isBusy: boolean;
  onEdit: () => void;
  onRevoke: () => void;
  onRestore: () => void;
}) {
  const status = grantStatusLabel(license);
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 p-3" data-testid="package-license">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium [overflow-wrap:anywhere]">{license.email}</span>
          {status === 'Active' ? (
            <Badge className="bg-green-600 text-white">Active</Badge>
          ) : (
            <Badge variant={status === 'Revoked' ? 'destructive' : 'secondary'}>{status}</Badge>
          )}
          <Badge variant="outline">{grantKindLabels[license.kind]}</Badge>
        </div>
        <p className="text-xs text-muted-foreground">
          Created {formatDate(license.createdAt)} ·{' '}
          {license.expiresAt ? `Expires ${formatDateTime(license.expiresAt)}` : 'Never expires'}
          {license.expiresAt && license.endMode === 'updates' ? ' (updates only)' : ''} · Downloads{' '}
          {downloadsText(license)} ·{' '}
          {license.lastUsedAt ? `Last used ${formatDateTime(license.lastUsedAt)}` : 'Never used'}
        </p>
        {license.note && <p className="text-xs italic text-muted-foreground">{license.note}</p>}
        <EmailDeliveryNote delivery={license.emailDelivery} />
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit license of ${license.email}`}>
          <Pencil /> Edit
        </Button>
        {license.status === 'revoked' ? (
          <Button variant="outline" size="sm" onClick={onRestore} disabled={isBusy}>
            <RotateCcw /> Restore
          </Button>
        ) : (
          <Button
            variant="outline"
            size="sm"
            onClick={onRevoke}
            className="text-destructive hover:text-destructive"
            aria-label={`Revoke license of ${license.email}`}
          >
            <ShieldOff /> Revoke
          </Button>
        )}
      </div>
    </li>
  );
}
