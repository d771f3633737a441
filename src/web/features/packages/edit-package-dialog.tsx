import { useEffect } from 'react';
import { z } from 'zod';
import { updatePackageInput } from '../../../contract/packages';
import { DialogFormButtons, TitledDialog } from '../../components/form-dialog';
import { FormField, FormInput } from '../../components/form-field';
import { Textarea } from '../../components/ui/textarea';
import { intoContract } from '../../lib/contract-form';
import { useSchemaForm } from '../../lib/schema-form';
import { PackageActiveSwitch } from './package-active-switch';
import { type Package, useUpdatePackage } from './package-hooks';

/**
 * The form's values: the description is a textarea's text, which the contract takes as null when empty; the name and
 * the rest are checked by the contract's updatePackageInput (the server's own rules and messages).
 */
const editPackageForm = z.object({ packageName: z.string(), description: z.string(), isActive: z.boolean() }).transform(
  intoContract(updatePackageInput, ({ packageName, description, isActive }) => ({
    packageName,
    description: description.trim() || null,
    isActive,
  })),
);
type EditPackageFormValues = z.input<typeof editPackageForm>;

const formValuesOf = (pkg: Package | undefined): EditPackageFormValues => ({
  packageName: pkg?.packageName ?? '',
  description: pkg?.description ?? '',
  isActive: pkg?.isActive ?? true,
});

/** Edit Package (spec seller-app §2, §4, §5): name, description and the active toggle. */
export function EditPackageDialog({ pkg, onClose }: { pkg: Package | undefined; onClose: () => void }) {
  const update = useUpdatePackage();
  const form = useSchemaForm(editPackageForm, formValuesOf(pkg));
  const { errors } = form.formState;

  // The dialog stays mounted between packages: each opening starts from the package's saved values.
  useEffect(() => {
    if (pkg) form.reset(formValuesOf(pkg));
  }, [pkg, form]);

  const submit = form.handleSubmit((input) => pkg && update.mutate({ id: pkg.id, input }, { onSuccess: onClose }));

  return (
    <TitledDialog
      open={Boolean(pkg)}
      onClose={() => !update.isPending && onClose()}
      className="max-w-2xl"
      title="Edit Package"
      description={<>Changes apply to every license holder at once. The repository stays {pkg?.fullName}.</>}
    >
      <form id="edit-package-form" onSubmit={submit} className="space-y-4" noValidate>
        <FormInput
          form={form}
          name="packageName"
          id="edit-package-name"
          label="Package Name *"
          className="font-mono"
          autoComplete="off"
        />
        <FormField id="edit-package-description" label="Description" error={errors.description?.message}>
          {(control) => <Textarea {...control} rows={3} {...form.register('description')} />}
        </FormField>
        <PackageActiveSwitch
          id="edit-package-active"
          control={form.control}
          hint="An inactive package disappears from every license holder's repository until it is active again."
        />
      </form>
      <DialogFormButtons
        submitLabel="Save Changes"
        form="edit-package-form"
        isPending={update.isPending}
        onCancel={onClose}
      />
    </TitledDialog>
  );
}
