import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { updatePackageInput } from '../../../contract/packages';
import { FormField } from '../../components/form-field';
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
import { Switch } from '../../components/ui/switch';
import { Textarea } from '../../components/ui/textarea';
import { intoContract } from '../../lib/contract-form';
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
  const form = useForm<EditPackageFormValues, unknown, z.output<typeof editPackageForm>>({
    resolver: zodResolver(editPackageForm),
    defaultValues: formValuesOf(pkg),
  });
  const { errors } = form.formState;

  // The dialog stays mounted between packages: each opening starts from the package's saved values.
  useEffect(() => {
    if (pkg) form.reset(formValuesOf(pkg));
  }, [pkg, form]);

  const submit = form.handleSubmit((input) => pkg && update.mutate({ id: pkg.id, input }, { onSuccess: onClose }));

  return (
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Package</DialogTitle>
          <DialogDescription>
            Changes apply to every license holder at once. The repository stays {pkg?.fullName}.
          </DialogDescription>
        </DialogHeader>
        <form id="edit-package-form" onSubmit={submit} className="space-y-4" noValidate>
          <FormField id="edit-package-name" label="Package Name *" error={errors.packageName?.message}>
            {(control) => (
              <Input {...control} className="font-mono" autoComplete="off" {...form.register('packageName')} />
            )}
          </FormField>
          <FormField id="edit-package-description" label="Description" error={errors.description?.message}>
            {(control) => <Textarea {...control} rows={3} {...form.register('description')} />}
          </FormField>
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <div className="space-y-0.5">
              <Label htmlFor="edit-package-active">Active</Label>
              <p className="text-xs text-muted-foreground">
                An inactive package disappears from every license holder's repository until it is active again.
              </p>
            </div>
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <Switch id="edit-package-active" checked={field.value} onCheckedChange={field.onChange} />
              )}
            />
          </div>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="edit-package-form" disabled={update.isPending}>
            {update.isPending && <Loader2 className="animate-spin" />}
            Save Changes
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
