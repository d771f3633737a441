import { Loader2, Ticket } from 'lucide-react';
import { Controller, FormProvider } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { LabelledCheckbox } from '../../components/ui/checkbox';
import { useSchemaForm } from '../../lib/schema-form';
import { type IssuedLicense, type License, useIssueLicense, useUpdateLicense } from './lasting-license-hooks';
import { emptyTermsForm, termsFormOf } from './lasting-license-rules';
import { editLicenseForm, issueLicenseForm } from './license-forms';
import type { LicensedPackage } from './license-hooks';
import { HolderEmailField } from './license-list-parts';
import { LicenseTermsFields } from './license-terms-fields';
import { PackagePicker } from './package-picker';

// The Licenses dialog's two forms (issue 16): issue a lasting license to a holder, or change one's terms. Both check
// the terms with license-forms' schemas before sending; the server's refusal comes back as a toast.

export function IssueLicenseForm({
  pkg,
  onIssued,
}: {
  pkg: LicensedPackage;
  onIssued: (issued: IssuedLicense) => void;
}) {
  const issue = useIssueLicense(pkg);
  const form = useSchemaForm(issueLicenseForm, { ...emptyTermsForm, email: '', sendEmail: true, packageIds: [pkg.id] });
  const { errors } = form.formState;
  const email = form.watch('email');
  const packageIds = form.watch('packageIds');
  const submit = form.handleSubmit((input) => issue.mutate(input, { onSuccess: onIssued }));

  return (
    <FormProvider {...form}>
      <form
        onSubmit={submit}
        className="space-y-4 rounded-md border bg-muted/30 p-4"
        noValidate
        aria-label="Issue a license"
      >
        <HolderEmailField id="license-email" error={errors.email?.message} registration={form.register('email')} />
        <Controller
          control={form.control}
          name="packageIds"
          render={({ field }) => <PackagePicker selected={field.value} onChange={field.onChange} />}
        />
        <LicenseTermsFields idPrefix="license" />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <LabelledCheckbox label="E-mail the setup commands to the license holder" {...form.register('sendEmail')} />
          <Button type="submit" disabled={!email.trim() || packageIds.length === 0 || issue.isPending}>
            {issue.isPending ? <Loader2 className="animate-spin" /> : <Ticket />}
            {packageIds.length > 1 ? `Issue ${packageIds.length} Licenses` : 'Issue License'}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

export function EditLicenseForm({
  pkg,
  license,
  onDone,
}: {
  pkg: LicensedPackage;
  license: License;
  onDone: () => void;
}) {
  const update = useUpdateLicense(pkg);
  const form = useSchemaForm(editLicenseForm, termsFormOf(license));
  const submit = form.handleSubmit((changes) => update.mutate({ license, changes }, { onSuccess: onDone }));

  return (
    <FormProvider {...form}>
      <form
        onSubmit={submit}
        className="space-y-4 rounded-md border border-primary/40 bg-primary/5 p-4"
        noValidate
        aria-label="Edit license"
      >
        <p className="text-sm font-semibold">
          Edit the license of <span className="font-normal">{license.email}</span>
        </p>
        <LicenseTermsFields idPrefix="edit-license" />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Loader2 className="animate-spin" />}
            Save Changes
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
